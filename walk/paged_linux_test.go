package walk

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// TestBatchesPaged: on a file system that answers a few entries per read
// (FUSE), a directory's listing is whole in one part or in several, each
// entry once with its size, and comes in parts under Batches.
func TestBatchesPaged(t *testing.T) {
	names := make([]string, 2*4096+100)
	for i := range names {
		names[i] = fmt.Sprintf("file-%05d", i)
	}
	root := testfs.PagedDir(t, names, 64)
	var want []string
	for _, n := range names {
		want = append(want, fmt.Sprintf("%s %d %v", n, len(n), fs.FileMode(0)))
	}
	for _, opts := range []Options{
		{Workers: 1, StatAll: true},
		{Batches: true, Workers: 1, StatAll: true},
		{Batches: true, Workers: 2, StatAll: true, SplitDirSize: 1},
	} {
		got, parts := listingOf(t, root, opts)
		if got[root] != strings.Join(want, "\n") {
			g := strings.Split(got[root], "\n")
			t.Errorf("%+v: the listing differs from the server's %d files: %d lines, first %q", opts, len(names), len(g), firstDiff(g, want))
		}
		if opts.Batches && parts[root] < 3 {
			t.Errorf("%+v: %d parts, want 3 or more", opts, parts[root])
		}
	}
}

// firstDiff says where got and want first differ, for a failure's
// message.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("%d: %s, want %s", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d names, want %d", len(got), len(want))
	}
	return "none"
}
