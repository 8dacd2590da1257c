//go:build !linux

package dutree

import (
	"context"
	"io"

	"github.com/pbednarcik/flexreaddir/walk"
)

// Stream scans root and writes it to w in ncdu's format. Here the scan is
// whole first, then written (Linux's streams); stopped by ctx, it writes
// nothing and complete is false.
func Stream(ctx context.Context, w io.Writer, root string, so StreamOptions, wo WriteOptions) (complete bool, err error) {
	o := ScanOptions{Exclude: so.Exclude, Walk: func() *walk.Options { return &walk.Options{OneFileSystem: so.OneFileSystem} }}
	t, errs, err := Scan(ctx, root, o)
	for _, e := range errs {
		if so.OnError != nil {
			so.OnError(e)
		}
	}
	if err != nil {
		return false, err
	}
	if t.Incomplete {
		return false, ctx.Err()
	}
	return true, Write(w, t, wo)
}
