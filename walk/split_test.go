package walk

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSplitFromSize: a directory whose own size is SplitDirSize is split
// (its names listed first, then stat'ed across the workers); one a byte
// smaller than that is not.
func TestSplitFromSize(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "f"), nil, 0o644))
	fi, err := os.Stat(root)
	must(t, err)
	size := fi.Size()
	if size <= 1 {
		t.Skipf("skipping: a directory's size here is %d", size)
	}
	defer func() { testHookSplitListed = nil }()
	for _, c := range []struct {
		at   int64
		want bool
	}{{size, true}, {size + 1, false}} {
		split := false
		testHookSplitListed = func(string) { split = true }
		must(t, Dirs(t.Context(), root, &Options{Workers: 2, SplitDirSize: c.at}, func(*Dir) error { return nil }))
		if split != c.want {
			t.Errorf("a directory of %d bytes, SplitDirSize %d: split %v; want %v", size, c.at, split, c.want)
		}
	}
}

// TestSplitStatsRunAtOnce: a split directory's two files are stat'ed by
// two goroutines at once, one each. Both are removed once listed, so each
// stat reports its file gone, and each report waits for the other.
func TestSplitStatsRunAtOnce(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"f0", "f1"} {
		must(t, os.WriteFile(filepath.Join(root, f), nil, 0o644))
	}
	testHookSplitListed = func(string) {
		for _, f := range []string{"f0", "f1"} {
			os.Remove(filepath.Join(root, f))
		}
	}
	defer func() { testHookSplitListed = nil }()
	var arrived atomic.Int32
	both := make(chan struct{})
	var mu sync.Mutex
	var alone []string
	opts := &Options{Workers: 2, SplitDirSize: 1, ReportVanished: true, OnError: func(e *Error) error {
		if arrived.Add(1) == 2 {
			close(both)
		}
		select {
		case <-both:
		case <-time.After(5 * time.Second):
			mu.Lock()
			alone = append(alone, e.Path)
			mu.Unlock()
		}
		return nil
	}}
	must(t, Dirs(t.Context(), root, opts, func(*Dir) error { return nil }))
	if len(alone) > 0 {
		t.Errorf("%q stat'ed with no other stat at once", alone)
	}
}
