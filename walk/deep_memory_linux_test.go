package walk

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestDeepChainHoldsOnePath: a chain 1,000 levels deep of 200-byte names,
// with a sibling at every level, walked with Post. Holding every pending
// and every unfinished directory's path would keep about 200 MB live at
// the bottom (the sum of 1,000 paths of up to 200 KB, twice), and keeping
// the paths built for Post 100 MB at the end; the walk must hold about
// one path, 200 KB, and the names.
func TestDeepChainHoldsOnePath(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds a 2,000-directory chain")
	}
	const levels, limit = 1000, 16 << 20
	root := t.TempDir()
	mkChain(t, root, strings.Repeat("n", 200), levels, true)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var live, atRoot uint64
	var posts int
	opts := &Options{Workers: 1, Post: func(d *Dir) error {
		want := len(root) // each level above d adds 201 bytes, d itself 1 and its name
		if d.Depth > 0 {
			want += (d.Depth-1)*201 + 1 + len(d.Info.Name)
		}
		if !strings.HasPrefix(d.Path, root) || !strings.HasSuffix(d.Path, d.Info.Name) || len(d.Path) != want {
			t.Errorf("Post's path at depth %d: %d bytes", d.Depth, len(d.Path))
		}
		posts++
		if d.Depth == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			atRoot = ms.HeapAlloc - min(base, ms.HeapAlloc)
		}
		return nil
	}}
	err := Dirs(context.Background(), root, opts, func(d *Dir) error {
		if d.Depth == levels {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			live = ms.HeapAlloc - min(base, ms.HeapAlloc)
		}
		return nil
	})
	must(t, err)
	if posts != 2*levels+1 {
		t.Errorf("%d Posts; want %d", posts, 2*levels+1)
	}
	t.Logf("%d bytes live at the bottom, %d at the root's Post", live, atRoot)
	if live == 0 || live > limit {
		t.Errorf("%d bytes live at the bottom of the chain; want at most %d", live, limit)
	}
	if atRoot == 0 || atRoot > limit {
		t.Errorf("%d bytes live at the root's Post; want at most %d", atRoot, limit)
	}
}
