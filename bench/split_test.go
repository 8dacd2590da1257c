package bench

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/treegen"
	"github.com/pbednarcik/flexreaddir/walk"
)

// BenchmarkSplitBusy walks the source tree with every directory split or
// none: what splitting costs when the workers are busy anyway.
func BenchmarkSplitBusy(b *testing.B) {
	root := tree(b, treegen.SourceCheckout)
	for _, split := range []int64{-1, 4096} {
		b.Run(fmt.Sprint("split=", split), func(b *testing.B) {
			for b.Loop() {
				var total atomic.Int64
				walk.Dirs(context.Background(), root, &walk.Options{SplitDirSize: split}, func(d *walk.Dir) error {
					for _, e := range d.Entries {
						total.Add(e.Size)
					}
					return nil
				})
			}
		})
	}
}
