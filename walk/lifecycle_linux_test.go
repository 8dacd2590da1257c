package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// bushyTree makes a tree whose walk keeps many descriptors at once: width
// directories, each with width more, each with two leaves and a file, and
// a dangling link at the top (an error to report under StatAll with
// FollowSymlinks).
func bushyTree(t *testing.T, width int) string {
	t.Helper()
	root := t.TempDir()
	for i := range width {
		for j := range width {
			for k := range 2 {
				must(t, os.MkdirAll(filepath.Join(root, fmt.Sprint("a", i), fmt.Sprint("b", j), fmt.Sprint("c", k)), 0o755))
			}
			must(t, os.WriteFile(filepath.Join(root, fmt.Sprint("a", i), fmt.Sprint("b", j), "f"), []byte("data"), 0o644))
		}
	}
	must(t, os.Symlink("nowhere", filepath.Join(root, "a0", "dangling")))
	return root
}

// stopKinds are the ways a walk can end before its end, each run on root.
var stopKinds = []struct {
	name string
	run  func(root string) error
}{
	{"DirFunc error", func(root string) error {
		var n atomic.Int32
		return Dirs(context.Background(), root, nil, func(d *Dir) error {
			if n.Add(1) == 30 {
				return errors.New("enough")
			}
			return nil
		})
	}},
	{"SkipAll", func(root string) error {
		var n atomic.Int32
		return Dirs(context.Background(), root, nil, func(d *Dir) error {
			if n.Add(1) == 30 {
				return fs.SkipAll
			}
			return nil
		})
	}},
	{"DirFunc error under Batches", func(root string) error {
		var n atomic.Int32
		return Dirs(context.Background(), root, &Options{Batches: true, StatAll: true}, func(d *Dir) error {
			if n.Add(1) == 30 {
				return errors.New("enough")
			}
			return nil
		})
	}},
	{"Post error", func(root string) error {
		var n atomic.Int32
		return Dirs(context.Background(), root, &Options{Post: func(d *Dir) error {
			if n.Add(1) == 10 {
				return errors.New("enough")
			}
			return nil
		}}, func(d *Dir) error { return nil })
	}},
	{"OnError error", func(root string) error {
		return Dirs(context.Background(), root, &Options{StatAll: true, FollowSymlinks: true, OnError: func(e *Error) error {
			return e
		}}, func(d *Dir) error { return nil })
	}},
	{"cancelled context", func(root string) error {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var n atomic.Int32
		return Dirs(ctx, root, nil, func(d *Dir) error {
			if n.Add(1) == 30 {
				cancel()
			}
			return nil
		})
	}},
	{"panic in DirFunc", func(root string) (err error) {
		defer func() { err = fmt.Errorf("recovered %v", recover()) }()
		var n atomic.Int32
		return Dirs(context.Background(), root, nil, func(d *Dir) error {
			if n.Add(1) == 30 {
				panic("boom")
			}
			return nil
		})
	}},
	{"panic in Post", func(root string) (err error) {
		defer func() { err = fmt.Errorf("recovered %v", recover()) }()
		var n atomic.Int32
		return Dirs(context.Background(), root, &Options{Post: func(d *Dir) error {
			if n.Add(1) == 10 {
				panic("boom")
			}
			return nil
		}}, func(d *Dir) error { return nil })
	}},
	{"WalkDir error", func(root string) error {
		var n atomic.Int32
		return WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if n.Add(1) == 200 {
				return errors.New("enough")
			}
			return nil
		})
	}},
	{"WalkDir SkipAll", func(root string) error {
		var n atomic.Int32
		return WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if n.Add(1) == 200 {
				return fs.SkipAll
			}
			return nil
		})
	}},
}

// TestEarlyStopClosesDescriptors stops walks in every way they can stop
// and counts this process's descriptors before and after.
func TestEarlyStopClosesDescriptors(t *testing.T) {
	root := bushyTree(t, 12)
	for _, k := range stopKinds {
		t.Run(k.name, func(t *testing.T) {
			before := openFDs(t)
			for range 20 {
				if err := k.run(root); err == nil && k.name != "SkipAll" && k.name != "WalkDir SkipAll" {
					t.Fatal("the walk did not stop")
				}
			}
			if after := openFDs(t); after != before {
				t.Errorf("%d descriptors open after 20 stopped walks, %d before", after, before)
			}
		})
	}
}

// TestPanicReachesCaller checks that a callback's panic is raised again in
// the caller's goroutine, with its value, and that a nil DirFunc is an
// error.
func TestPanicReachesCaller(t *testing.T) {
	root := bushyTree(t, 3)
	for _, where := range []string{"DirFunc", "Post", "OnError"} {
		got := func() (v any) {
			defer func() { v = recover() }()
			opts := &Options{StatAll: true, FollowSymlinks: true}
			fn := func(d *Dir) error { return nil }
			switch where {
			case "DirFunc":
				fn = func(d *Dir) error { panic(where) }
			case "Post":
				opts.Post = func(d *Dir) error { panic(where) }
			case "OnError":
				opts.OnError = func(e *Error) error { panic(where) }
			}
			Dirs(context.Background(), root, opts, fn)
			return nil
		}()
		if got != where {
			t.Errorf("panic in %s: recovered %v in the caller", where, got)
		}
	}
	if err := Dirs(context.Background(), root, nil, nil); err == nil {
		t.Error("Dirs with a nil DirFunc returned nil")
	}
}

// TestGoexitReachesCaller: t.FailNow in a callback (runtime.Goexit) ends
// the walk and the caller's goroutine, rather than leaving it waiting.
func TestGoexitReachesCaller(t *testing.T) {
	root := bushyTree(t, 3)
	done := make(chan bool)
	go func() {
		returned := false
		defer func() { done <- returned }()
		Dirs(context.Background(), root, nil, func(d *Dir) error {
			runtime.Goexit()
			return nil
		})
		returned = true
	}()
	if <-done {
		t.Error("Dirs returned after a callback's runtime.Goexit")
	}
}

// TestLowFileLimit walks with RLIMIT_NOFILE at 16, 32 and 64 and from 1 to
// 64 workers: the walk must fit, with fewer workers if need be, and see
// every entry.
func TestLowFileLimit(t *testing.T) {
	root := t.TempDir()
	mkChain(t, root, "a", 120, true)
	bushy := bushyTree(t, 8)
	must(t, os.Rename(bushy, filepath.Join(root, "bushy")))
	variants := []Options{{}, {StatAll: true, SplitDirSize: 1}, {StatAll: true, SplitDirSize: 1, Batches: true}}
	var want []string
	for _, o := range variants {
		want = append(want, countTree(t, root, &o))
	}
	for _, lim := range []uint64{16, 32, 64} {
		testfs.LimitOpenFiles(t, lim)
		for _, workers := range []int{1, 2, 8, 64} {
			for i, opts := range variants {
				opts.Workers = workers
				if got := countTree(t, root, &opts); got != want[i] {
					t.Errorf("RLIMIT_NOFILE %d, %d workers, StatAll %v: %s; want %s", lim, workers, opts.StatAll, got, want[i])
				}
			}
		}
	}
}

// countTree walks root and sums what it saw, with the errors.
func countTree(t *testing.T, root string, opts *Options) string {
	t.Helper()
	var dirs, entries, size atomic.Int64
	var mu sync.Mutex
	var errs []string
	o := *opts
	o.OnError = func(e *Error) error {
		mu.Lock()
		errs = append(errs, e.Error())
		mu.Unlock()
		return nil
	}
	err := Dirs(context.Background(), root, &o, func(d *Dir) error {
		if d.Batch == 0 { // one call per part under Batches
			dirs.Add(1)
		}
		for _, e := range d.Entries {
			entries.Add(1)
			size.Add(e.Size)
		}
		return nil
	})
	return fmt.Sprintf("%d dirs, %d entries, %d bytes, error %v, errors %q", dirs.Load(), entries.Load(), size.Load(), err, errs)
}

// TestCancelStorm cancels walks at random moments from another goroutine,
// for the race detector, and checks each leaves no descriptor open.
func TestCancelStorm(t *testing.T) {
	root := bushyTree(t, 6)
	before := openFDs(t)
	runs := 300
	if testing.Short() {
		runs = 100
	}
	for i := range runs {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for range i % 50 {
				runtime.Gosched()
			}
			cancel()
		}()
		err := Dirs(ctx, root, &Options{Workers: 4}, func(d *Dir) error { return nil })
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		cancel()
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after %d cancelled walks, %d before", after, runs, before)
	}
}

// TestErrorStorm reports errors from every worker at once (a dangling link
// in every directory, stat'ed through), for the race detector.
func TestErrorStorm(t *testing.T) {
	root := t.TempDir()
	for i := range 200 {
		d := filepath.Join(root, fmt.Sprint(i))
		must(t, os.Mkdir(d, 0o755))
		must(t, os.Symlink("nowhere", filepath.Join(d, "dangling")))
	}
	var n atomic.Int32
	err := Dirs(context.Background(), root, &Options{Workers: 8, StatAll: true, FollowSymlinks: true}, func(d *Dir) error { return nil })
	if err == nil {
		t.Fatal("no error returned")
	}
	err = Dirs(context.Background(), root, &Options{Workers: 8, StatAll: true, FollowSymlinks: true, OnError: func(e *Error) error {
		n.Add(1)
		return nil
	}}, func(d *Dir) error { return nil })
	if err != nil || n.Load() != 200 {
		t.Errorf("%d errors reported, returned %v; want 200 and nil", n.Load(), err)
	}
}

// combTree is a chain of depth directories "a" with two empty siblings at
// every level, so that a depth-first walk keeps most of the chain open.
func combTree(t *testing.T, depth int) string {
	t.Helper()
	root := t.TempDir()
	p := root
	for i := range depth {
		// Names that differ by level, so that the chain's place among its
		// siblings in the file system's hash order differs too.
		for _, n := range []string{fmt.Sprint("l", i), fmt.Sprint("m", i)} {
			must(t, os.Mkdir(filepath.Join(p, n), 0o755))
		}
		p = filepath.Join(p, fmt.Sprint("a", i))
		must(t, os.Mkdir(p, 0o755))
	}
	return root
}

// TestLimitMostlyUsed walks with RLIMIT_NOFILE at 64 of which 48 are
// already open: the walk must count them, not assume half the limit free.
func TestLimitMostlyUsed(t *testing.T) {
	root := combTree(t, 100)
	want := countTree(t, root, &Options{})
	testfs.LimitOpenFiles(t, 64)
	var held []*os.File
	for openFDs(t) < 52 {
		f, err := os.Open(os.DevNull)
		must(t, err)
		held = append(held, f)
	}
	defer func() {
		for _, f := range held {
			f.Close()
		}
	}()
	for _, workers := range []int{1, 2, 8} {
		if got := countTree(t, root, &Options{Workers: workers}); got != want {
			t.Errorf("%d workers, with %d of 64 descriptors open: %s; want %s", workers, openFDs(t), got, want)
		}
	}
}

// TestConcurrentWalksShareTheLimit runs four walks at once with
// RLIMIT_NOFILE at 64: each plans against what the others have not taken.
func TestConcurrentWalksShareTheLimit(t *testing.T) {
	root := combTree(t, 100)
	want := countTree(t, root, &Options{})
	testfs.LimitOpenFiles(t, 64)
	var wg sync.WaitGroup
	got := make([]string, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = countTree(t, root, &Options{Workers: 1 + i%2})
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("walk %d of 4 at once: %s; want %s", i, g, want)
		}
	}
}

// TestBatchesEarlyStopClosesDescriptors stops walks under Batches on a
// later part of a directory of several buffers, in each way a walk stops
// (an error, SkipAll, a cancel, a panic), with one and four workers, split
// or not, and counts the descriptors before and after.
func TestBatchesEarlyStopClosesDescriptors(t *testing.T) {
	root := batchTree(t)
	big := filepath.Join(root, "big")
	for _, how := range []string{"error", "SkipAll", "cancel", "panic"} {
		for _, opts := range []Options{{Workers: 1}, {Workers: 4}, {Workers: 2, SplitDirSize: 1}} {
			before := openFDs(t)
			for range 10 {
				ctx, cancel := context.WithCancel(context.Background())
				o := opts
				o.Batches, o.StatAll = true, true
				func() {
					defer func() {
						if r := recover(); r != nil && how != "panic" {
							t.Fatalf("%s: panic %v", how, r)
						}
					}()
					err := Dirs(ctx, root, &o, func(d *Dir) error {
						if d.Path != big || d.Batch != 1 {
							return nil
						}
						switch how {
						case "error":
							return errors.New("enough")
						case "SkipAll":
							return fs.SkipAll
						case "cancel":
							cancel()
						case "panic":
							panic("in a later part")
						}
						return nil
					})
					if how == "cancel" && !errors.Is(err, context.Canceled) || how == "error" && err == nil {
						t.Errorf("%s, %+v: Dirs returned %v", how, opts, err)
					}
				}()
				cancel()
			}
			if after := openFDs(t); after != before {
				t.Errorf("%s, %+v: %d descriptors open after 10 stopped walks, %d before", how, opts, after, before)
			}
		}
	}
}
