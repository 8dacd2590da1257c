package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// oddTree makes a tree with every kind of entry the walker must handle.
func oddTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	_, err := treegen.Make(root, treegen.SourceCheckout.Small(4, 3, 4), 1)
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(root, "empty", "also-empty"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "links"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "links", "target"), []byte("12345"), 0o644))
	must(t, os.Symlink("target", filepath.Join(root, "links", "to-file")))
	must(t, os.Symlink("../empty", filepath.Join(root, "links", "to-dir")))
	must(t, os.Symlink("nowhere", filepath.Join(root, "links", "dangling")))
	must(t, os.Symlink("..", filepath.Join(root, "links", "to-parent")))
	must(t, os.Symlink("self", filepath.Join(root, "links", "self")))
	must(t, os.Link(filepath.Join(root, "links", "target"), filepath.Join(root, "empty", "hardlink")))
	must(t, os.WriteFile(filepath.Join(root, "line\nbreak \xff"), nil, 0o644))
	return root
}

// record is what the tests compare for one path.
type record struct {
	Type  fs.FileMode
	Size  int64
	MTime int64
	Ino   uint64
}

// stdlibRecords walks root with filepath.WalkDir and os.Lstat.
func stdlibRecords(t *testing.T, root string) map[string]record {
	t.Helper()
	got := map[string]record{}
	must(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == root {
			return nil
		}
		r := record{Type: d.Type()}
		if d.Type().IsRegular() {
			fi, err := os.Lstat(path)
			if err != nil {
				return err
			}
			r.Size, r.MTime, r.Ino = fi.Size(), fi.ModTime().UnixNano(), inode(fi)
		}
		got[path] = r
		return nil
	}))
	return got
}

func dirsRecords(t *testing.T, root string, opts *Options) map[string]record {
	t.Helper()
	var mu sync.Mutex
	got := map[string]record{}
	must(t, Dirs(context.Background(), root, opts, func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range d.Entries {
			got[joinPath(d.Path, e.Name)] = record{Type: e.Type, Size: e.Size, MTime: e.ModTimeNanos, Ino: fileID(e.FileID)}
		}
		return nil
	}))
	return got
}

func diffRecords(t *testing.T, got, want map[string]record) {
	t.Helper()
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("missing %q", p)
		} else if g != w {
			t.Errorf("%q: got %+v, want %+v", p, g, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("extra %q", p)
		}
	}
}

func TestDirsMatchesStdlib(t *testing.T) {
	root := oddTree(t)
	want := stdlibRecords(t, root)
	for _, workers := range []int{1, 2, 4, 16} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			diffRecords(t, dirsRecords(t, root, &Options{Workers: workers}), want)
		})
	}
	t.Run("every directory split", func(t *testing.T) {
		diffRecords(t, dirsRecords(t, root, &Options{Workers: 3, SplitDirSize: 1}), want)
	})
	t.Run("fd budget 1", func(t *testing.T) {
		diffRecords(t, dirsRecords(t, root, &Options{Workers: 3, MaxOpenDirs: 1}), want)
	})
	t.Run("names reused", func(t *testing.T) {
		diffRecords(t, dirsRecords(t, root, &Options{Workers: 3, Reuse: true}), want)
		diffRecords(t, dirsRecords(t, root, &Options{Workers: 2, Reuse: true, SplitDirSize: 1, MaxOpenDirs: 1}), want)
	})
}

func TestWalkDirMatchesStdlib(t *testing.T) {
	root := oddTree(t)
	var want []string
	must(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		want = append(want, path+" "+d.Type().String())
		return err
	}))
	var mu sync.Mutex
	var got []string
	must(t, WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		mu.Lock()
		got = append(got, path+" "+d.Type().String())
		mu.Unlock()
		return err
	}))
	slices.Sort(got)
	sortedWant := slices.Sorted(slices.Values(want))
	if !slices.Equal(got, sortedWant) {
		t.Errorf("WalkDir visited\n%q\nfilepath.WalkDir\n%q", got, sortedWant)
	}

	// One worker and Sorted: the same order on every run, every directory
	// before its contents, each directory's entries in name order.
	order := func() []string {
		var got []string
		must(t, Walk(&Options{Workers: 1, Sorted: true}, root, func(path string, d fs.DirEntry, err error) error {
			got = append(got, path)
			return err
		}))
		return got
	}
	first := order()
	if again := order(); !slices.Equal(first, again) {
		t.Errorf("two ordered walks differ:\n%q\n%q", first, again)
	}
	pos := map[string]int{}
	for i, p := range first {
		pos[p] = i
	}
	for i, p := range first[1:] {
		if dir := filepath.Dir(p); pos[dir] > i {
			t.Errorf("%q came before its directory", p)
		}
	}
}

func TestWalkDirSkip(t *testing.T) {
	root := oddTree(t)
	for _, tc := range []struct {
		name string
		fn   func(path string, d fs.DirEntry) error
	}{
		{"SkipDir on a directory", func(path string, d fs.DirEntry) error {
			if d.IsDir() && d.Name() == "d001" {
				return fs.SkipDir
			}
			return nil
		}},
		{"SkipDir on a file", func(path string, d fs.DirEntry) error {
			if !d.IsDir() && strings.HasPrefix(d.Name(), "f00002") {
				return fs.SkipDir
			}
			return nil
		}},
		{"SkipAll", func(path string, d fs.DirEntry) error {
			if d.Name() == "links" {
				return fs.SkipAll
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			must(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				must(t, err)
				want = append(want, path)
				return tc.fn(path, d)
			}))
			var got []string
			must(t, Walk(&Options{Workers: 1, Sorted: true}, root, func(path string, d fs.DirEntry, err error) error {
				must(t, err)
				got = append(got, path)
				return tc.fn(path, d)
			}))
			if tc.name == "SkipAll" {
				// The walk orders differ, so what came before the stop
				// does too: it must stop at once.
				if last := got[len(got)-1]; filepath.Base(last) != "links" {
					t.Errorf("the walk went on past SkipAll to %q", last)
				}
				return
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestPostTotals(t *testing.T) {
	root := t.TempDir()
	_, err := treegen.Make(root, treegen.Deep.Small(7, 2, 3), 7)
	must(t, err)
	// Bottom-up totals from Post, against sums from filepath.WalkDir.
	want := map[string]int64{}
	must(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		must(t, err)
		if d.Type().IsRegular() {
			fi, _ := d.Info()
			for p := filepath.Dir(path); ; p = filepath.Dir(p) {
				want[p] += fi.Size()
				if p == root {
					break
				}
			}
		} else if d.IsDir() {
			want[path] += 0
		}
		return nil
	}))
	for _, reuse := range []bool{false, true} {
		var mu sync.Mutex
		got := map[string]int64{}
		postTotals(t, root, reuse, &mu, got)
		if len(got) != len(want) {
			t.Errorf("reuse %v: %d directories, want %d", reuse, len(got), len(want))
		}
		for p, w := range want {
			if got[p] != w {
				t.Errorf("reuse %v: %s: total %d, want %d", reuse, p, got[p], w)
			}
		}
	}
}

// postTotals adds up each directory's files bottom-up with Post, into got.
func postTotals(t *testing.T, root string, reuse bool, mu *sync.Mutex, got map[string]int64) {
	type total struct{ n atomic.Int64 }
	must(t, Dirs(context.Background(), root, &Options{
		Workers: 4,
		Reuse:   reuse,
		Post: func(d *Dir) error {
			tot := d.Data.(*total).n.Load()
			if d.Parent != nil {
				d.Parent.Data.(*total).n.Add(tot)
			}
			mu.Lock()
			got[d.Path] = tot
			mu.Unlock()
			return nil
		},
	}, func(d *Dir) error {
		tot := new(total)
		for _, e := range d.Entries {
			tot.n.Add(e.Size)
		}
		d.Data = tot
		return nil
	}))
}

// TestReuseAllocates: under Reuse a walk of 2,011 directories allocates
// less than half the bytes it does without, the finished directories'
// storage serving again; the listings are the same either way.
func TestReuseAllocates(t *testing.T) {
	if raceEnabled {
		t.Skip("skipping under the race detector, which changes allocations")
	}
	root := t.TempDir()
	for i := range 1000 {
		must(t, os.MkdirAll(filepath.Join(root, fmt.Sprint("d", i%10), fmt.Sprint("e", i), "f"), 0o755))
	}
	diffRecords(t, dirsRecords(t, root, &Options{Workers: 2, Reuse: true}), dirsRecords(t, root, &Options{Workers: 2}))
	var bytes [2]uint64
	for i, reuse := range []bool{false, true} {
		var n atomic.Int64
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		must(t, Dirs(context.Background(), root, &Options{Workers: 1, Reuse: reuse}, func(d *Dir) error {
			n.Add(int64(len(d.Entries)))
			return nil
		}))
		runtime.ReadMemStats(&after)
		bytes[i] = after.TotalAlloc - before.TotalAlloc
		if n.Load() != 2010 {
			t.Fatalf("reuse %v: %d entries, want 2,010", reuse, n.Load())
		}
	}
	if bytes[1]*2 > bytes[0] {
		t.Errorf("a walk allocated %d bytes under Reuse, %d without: want less than half", bytes[1], bytes[0])
	}
	t.Logf("bytes allocated: %d without Reuse, %d with", bytes[0], bytes[1])
}

func TestMaxDepthAndSkipDir(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "a", "b", "c", "d"), 0o755))
	var mu sync.Mutex
	var seen []string
	must(t, Dirs(context.Background(), root, &Options{MaxDepth: 2}, func(d *Dir) error {
		mu.Lock()
		seen = append(seen, d.Path)
		mu.Unlock()
		return nil
	}))
	slices.Sort(seen)
	want := []string{root, filepath.Join(root, "a"), filepath.Join(root, "a", "b")}
	if !slices.Equal(seen, want) {
		t.Errorf("MaxDepth 2 listed %q, want %q", seen, want)
	}
	// Depths 0, 1 and 2 under MaxDepth 1, 2 and 3; zero or less is no
	// limit.
	chain := []string{root, filepath.Join(root, "a"), filepath.Join(root, "a", "b"),
		filepath.Join(root, "a", "b", "c"), filepath.Join(root, "a", "b", "c", "d")}
	for _, tc := range []struct{ max, want int }{{-1, 5}, {0, 5}, {1, 2}, {2, 3}, {3, 4}, {4, 5}} {
		seen = nil
		must(t, Dirs(context.Background(), root, &Options{MaxDepth: tc.max, Workers: 1}, func(d *Dir) error {
			seen = append(seen, d.Path)
			return nil
		}))
		slices.Sort(seen)
		if !slices.Equal(seen, chain[:tc.want]) {
			t.Errorf("MaxDepth %d listed %q, want %q", tc.max, seen, chain[:tc.want])
		}
	}
	seen = nil
	must(t, Dirs(context.Background(), root, nil, func(d *Dir) error {
		seen = append(seen, d.Path)
		if d.Depth == 1 {
			return fs.SkipDir
		}
		return nil
	}))
	if len(seen) != 2 {
		t.Errorf("SkipDir at depth 1 listed %q", seen)
	}
}

func TestHardLinksOnce(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a", "file")
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "b"), 0o755))
	must(t, os.WriteFile(p, []byte("data"), 0o644))
	for i := range 5 {
		must(t, os.Link(p, filepath.Join(root, "b", fmt.Sprint("link", i))))
	}
	must(t, os.WriteFile(filepath.Join(root, "b", "single"), []byte("x"), 0o644))
	count := func(opts *Options) int {
		var n atomic.Int32
		must(t, Dirs(context.Background(), root, opts, func(d *Dir) error {
			for _, e := range d.Entries {
				if e.Type.IsRegular() {
					n.Add(1)
				}
			}
			return nil
		}))
		return int(n.Load())
	}
	if n := count(&Options{HardLinksOnce: true}); n != 2 {
		t.Errorf("HardLinksOnce: %d files, want 2", n)
	}
	if n := count(nil); n != 7 {
		t.Errorf("without the filter: %d files, want 7", n)
	}
}

// TestHardLinksOnceTwoLinks: a file with exactly two links, the common
// case, is reported once; one with a single link always is.
func TestHardLinksOnceTwoLinks(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a", "b"} {
		must(t, os.Mkdir(filepath.Join(root, d), 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "a", "two"), []byte("data"), 0o644))
	must(t, os.Link(filepath.Join(root, "a", "two"), filepath.Join(root, "b", "two")))
	must(t, os.WriteFile(filepath.Join(root, "b", "one"), []byte("x"), 0o644))
	for _, workers := range []int{1, 2} {
		var mu sync.Mutex
		var files []string
		must(t, Dirs(context.Background(), root, &Options{HardLinksOnce: true, Workers: workers}, func(d *Dir) error {
			mu.Lock()
			defer mu.Unlock()
			for _, e := range d.Entries {
				if e.Type.IsRegular() {
					files = append(files, e.Name)
				}
			}
			return nil
		}))
		slices.Sort(files)
		if want := []string{"one", "two"}; !slices.Equal(files, want) {
			t.Errorf("HardLinksOnce, %d workers: files %q, want %q", workers, files, want)
		}
	}
}

// TestHardLinksOnceOneLinkMetTwice: a file of one link is no hard link,
// and HardLinksOnce leaves it in each listing that holds it, here a
// directory's and that of a link followed to it.
func TestHardLinksOnceOneLinkMetTwice(t *testing.T) {
	root := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "a"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a", "one"), []byte("x"), 0o644))
	if err := os.Symlink("a", filepath.Join(root, "l")); err != nil {
		t.Skipf("skipping: %v", err)
	}
	var n atomic.Int32
	must(t, Dirs(context.Background(), root, &Options{HardLinksOnce: true, FollowSymlinks: true}, func(d *Dir) error {
		for _, e := range d.Entries {
			if e.Name == "one" {
				n.Add(1)
			}
		}
		return nil
	}))
	if n.Load() != 2 {
		t.Errorf("a/one listed %d times, through a and l; want 2", n.Load())
	}
}

// TestSymlinkChainLimit: under FollowSymlinks a path from the root may
// lead through as many links as the kernel resolves in one path, and the
// link one past that is reported, not followed, with StatAll or without;
// StatAll, which cannot stat it either, leaves it out of the listing.
func TestSymlinkChainLimit(t *testing.T) {
	top := t.TempDir()
	root, chain := filepath.Join(top, "root"), filepath.Join(top, "chain")
	must(t, os.MkdirAll(filepath.Join(root, "t0"), 0o755))
	must(t, os.Symlink(filepath.Join(chain, "t1"), filepath.Join(root, "t0", "n")))
	for i := 1; i <= maxSymlinks+2; i++ {
		must(t, os.MkdirAll(filepath.Join(chain, fmt.Sprint("t", i)), 0o755))
		must(t, os.Symlink(fmt.Sprint("../t", i+1), filepath.Join(chain, fmt.Sprint("t", i), "n")))
	}
	for _, statAll := range []bool{false, true} {
		var mu sync.Mutex
		var errs []string
		deepest, lastEntries := 0, 0
		err := Dirs(context.Background(), root, &Options{FollowSymlinks: true, StatAll: statAll, OnError: func(e *Error) error {
			mu.Lock()
			errs = append(errs, e.Path)
			mu.Unlock()
			return nil
		}}, func(d *Dir) error {
			mu.Lock()
			if d.Depth > deepest {
				deepest, lastEntries = d.Depth, len(d.Entries)
			}
			mu.Unlock()
			return nil
		})
		must(t, err)
		// root/t0 and then one link per level.
		want := filepath.Join(root, "t0") + strings.Repeat(string(filepath.Separator)+"n", maxSymlinks+1)
		if len(errs) != 1 || errs[0] != want || deepest != maxSymlinks+1 {
			t.Errorf("StatAll %v: deepest level %d, errors %q; want %d and %q", statAll, deepest, errs, maxSymlinks+1, want)
		}
		if wantEntries := map[bool]int{false: 1, true: 0}[statAll]; lastEntries != wantEntries {
			t.Errorf("StatAll %v: the deepest directory lists %d entries, want %d", statAll, lastEntries, wantEntries)
		}
	}
}

func TestFollowSymlinks(t *testing.T) {
	root := oddTree(t)
	var loops atomic.Int32
	var mu sync.Mutex
	var dirs []string
	must(t, Dirs(context.Background(), root, &Options{
		FollowSymlinks: true,
		OnError: func(e *Error) error {
			if errors.Is(e, ErrLoop) {
				loops.Add(1)
				return nil
			}
			return e
		},
	}, func(d *Dir) error {
		mu.Lock()
		dirs = append(dirs, d.Path)
		mu.Unlock()
		return nil
	}))
	// links/to-dir is walked (it leads to empty/); links/to-parent leads
	// back to the root, an ancestor: a loop, reported and not walked.
	if !slices.Contains(dirs, filepath.Join(root, "links", "to-dir")) ||
		!slices.Contains(dirs, filepath.Join(root, "links", "to-dir", "also-empty")) {
		t.Errorf("links/to-dir not followed: %q", dirs)
	}
	if loops.Load() != 1 {
		t.Errorf("%d loops reported, want 1 (links/to-parent)", loops.Load())
	}
}

func TestCancel(t *testing.T) {
	root := t.TempDir()
	_, err := treegen.Make(root, treegen.Deep.Small(7, 2, 1), 3)
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var n, after atomic.Int32
	err = Dirs(ctx, root, &Options{Workers: 2}, func(d *Dir) error {
		if ctx.Err() != nil {
			after.Add(1)
		}
		// >=, not ==: cancel is idempotent, and one run under qemu-user
		// (linux/arm64 in CI) never saw the count equal 10 from Add.
		if n.Add(1) >= 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if after.Load() > 2 || n.Load() > 20 {
		t.Errorf("%d directories listed, %d after the cancel: not prompt", n.Load(), after.Load())
	}
}

func TestRemovedMidWalk(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/x", "b/y", "c/z"} {
		must(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	var mu sync.Mutex
	var seen []string
	err := Dirs(context.Background(), root, &Options{Workers: 1, Sorted: true}, func(d *Dir) error {
		mu.Lock()
		seen = append(seen, d.Path)
		mu.Unlock()
		if d.Depth == 0 {
			must(t, os.RemoveAll(filepath.Join(root, "b"))) // listed, not yet opened
		}
		return nil
	})
	must(t, err)
	want := []string{root, filepath.Join(root, "a"), filepath.Join(root, "a", "x"), filepath.Join(root, "c"), filepath.Join(root, "c", "z")}
	if !slices.Equal(seen, want) {
		t.Errorf("got %q, want %q", seen, want)
	}
}

func TestErrorsGoOn(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "a"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a", "f"), nil, 0o644))
	// A root that does not exist, and one that is a file.
	if err := Dirs(context.Background(), filepath.Join(root, "missing"), nil, func(*Dir) error { return nil }); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing root: %v", err)
	}
	var e *Error
	if err := Dirs(context.Background(), filepath.Join(root, "a", "f"), nil, func(*Dir) error { return nil }); !errors.As(err, &e) || e.Depth != 0 {
		t.Errorf("file root: %v", err)
	}
	// An error from the DirFunc ends the walk and is returned.
	boom := errors.New("boom")
	if err := Dirs(context.Background(), root, nil, func(*Dir) error { return boom }); err != boom {
		t.Errorf("DirFunc error: %v", err)
	}
	var calls atomic.Int32
	if err := Dirs(context.Background(), root, nil, func(*Dir) error { calls.Add(1); return fs.SkipAll }); err != nil {
		t.Errorf("SkipAll: %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("SkipAll from the root: %d directories listed, want 1", n)
	}
}

// TestSkipAllStops: SkipAll from a directory, or from its Post, ends the
// walk there: with one worker no callback comes after it, and with
// several no more listings than the other workers had already begun.
// (Other workers finishing their directories still call Post.) A callback
// after the SkipAll waits until the walk has halted, so that one begun
// while the worker that got SkipAll is not yet scheduled again counts as
// begun before the halt, which it is.
func TestSkipAllStops(t *testing.T) {
	t.Cleanup(func() { testHookHalted.Store(nil) })
	root := t.TempDir()
	for i := range 8 {
		for j := range 8 {
			must(t, os.MkdirAll(filepath.Join(root, fmt.Sprint("a", i), fmt.Sprint("b", j)), 0o755))
		}
	}
	for _, post := range []bool{false, true} {
		for _, workers := range []int{1, 4} {
			if post && workers > 1 {
				continue
			}
			for _, batches := range []bool{false, true} {
				var mu sync.Mutex
				calls, after, stopped := 0, 0, false
				halted := make(chan struct{})
				var once sync.Once
				type walkKey struct{}
				ours := context.WithValue(context.Background(), walkKey{}, halted)
				hook := func(ctx context.Context) {
					if ctx.Value(walkKey{}) == halted {
						once.Do(func() { close(halted) })
					}
				}
				testHookHalted.Store(&hook)
				late, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				// called counts a callback and says whether to stop at it.
				called := func() bool {
					mu.Lock()
					wait := stopped
					if stopped {
						after++
					}
					calls++
					stopped = stopped || calls == 10
					stop := calls == 10
					mu.Unlock()
					if wait {
						select {
						case <-halted:
						case <-late.Done(): // reported below, as callbacks after SkipAll
						}
					}
					return stop
				}
				opts := &Options{Workers: workers, Batches: batches}
				fn := func(*Dir) error {
					if !post && called() {
						return fs.SkipAll
					}
					return nil
				}
				if post {
					opts.Post = func(*Dir) error {
						if called() {
							return fs.SkipAll
						}
						return nil
					}
				}
				if err := Dirs(ours, root, opts, fn); err != nil {
					t.Errorf("post %v, %d workers, batches %v: %v", post, workers, batches, err)
				}
				if after > workers-1 {
					t.Errorf("post %v, %d workers, batches %v: %d callbacks after SkipAll, want at most %d",
						post, workers, batches, after, workers-1)
				}
			}
		}
	}
}

// TestInfoName: a directory's Info names it by its last element, the
// root's as the subdirectories' (the root is opened by its whole path).
func TestInfoName(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	got := map[int]string{}
	must(t, Dirs(context.Background(), root, &Options{Workers: 1}, func(d *Dir) error {
		got[d.Depth] = d.Info.Name
		return nil
	}))
	want := map[int]string{0: filepath.Base(root), 1: "a", 2: "b"}
	if !maps.Equal(got, want) {
		t.Errorf("Info.Name by depth: %v, want %v", got, want)
	}
}

// TestFewEntries: a directory of zero, one and two entries is listed
// whole, in one part under Batches.
func TestFewEntries(t *testing.T) {
	for n := range 3 {
		root := t.TempDir()
		var want []string
		for i := range n {
			name := fmt.Sprint("f", i)
			must(t, os.WriteFile(filepath.Join(root, name), nil, 0o644))
			want = append(want, name)
		}
		for _, batches := range []bool{false, true} {
			var got []string
			parts := 0
			must(t, Dirs(context.Background(), root, &Options{Batches: batches, Sorted: true}, func(d *Dir) error {
				parts++
				if d.More || d.Batch != 0 {
					t.Errorf("%d entries: part %d, More %v", n, d.Batch, d.More)
				}
				for _, e := range d.Entries {
					got = append(got, e.Name)
				}
				return nil
			}))
			if parts != 1 || !slices.Equal(got, want) {
				t.Errorf("%d entries, batches %v: %d parts listing %q, want one listing %q", n, batches, parts, got, want)
			}
		}
	}
}

// listing keeps the frd import honest in tests that only count entries.
var _ = frd.Entry{}

// TestErrorMessage: an Error names its path once, whether or not the
// error it wraps names it too.
func TestErrorMessage(t *testing.T) {
	dir := filepath.Join("root", "dir")
	inner := &os.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
	for _, c := range []struct {
		e    *Error
		want string
	}{
		{&Error{Path: dir, Err: inner}, inner.Error()},
		{&Error{Path: filepath.Join(dir, "sub"), Err: inner}, filepath.Join(dir, "sub") + ": " + inner.Error()},
		{&Error{Path: dir, Err: ErrLoop}, dir + ": " + ErrLoop.Error()},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%q; want %q", got, c.want)
		}
	}
}

// TestKeptDirsHoldNoPath: a caller that keeps every Dir (an Error's Dir
// keeps its Parents too) holds no path but the root's, its own string,
// once each directory is done: a deep tree's paths would cost the square
// of its depth.
func TestKeptDirsHoldNoPath(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "a", "b", "c"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "a", "d"), 0o755))
	for _, opts := range []*Options{{Workers: 1}, {Workers: 2, Post: func(*Dir) error { return nil }}} {
		var mu sync.Mutex
		var kept []*Dir
		must(t, Dirs(context.Background(), root, opts, func(d *Dir) error {
			mu.Lock()
			kept = append(kept, d)
			mu.Unlock()
			return nil
		}))
		if len(kept) != 5 {
			t.Fatalf("%d directories; want 5", len(kept))
		}
		for _, d := range kept {
			if want := map[bool]string{true: root}[d.Depth == 0]; d.Path != want {
				t.Errorf("Post %v: a directory at depth %d holds %q after the walk; want %q", opts.Post != nil, d.Depth, d.Path, want)
			}
		}
	}
}

// TestZeroWorkersMeansGOMAXPROCS: with Workers 0, GOMAXPROCS DirFuncs run
// at once, each of three siblings' waiting for the other two.
func TestZeroWorkersMeansGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	root := t.TempDir()
	for _, d := range []string{"x", "y", "z"} {
		must(t, os.Mkdir(filepath.Join(root, d), 0o755))
	}
	var arrived atomic.Int32
	all := make(chan struct{})
	err := Dirs(context.Background(), root, &Options{}, func(d *Dir) error {
		if d.Depth == 0 {
			return nil
		}
		if arrived.Add(1) == 3 {
			close(all)
		}
		select {
		case <-all:
			return nil
		case <-time.After(5 * time.Second):
			return fmt.Errorf("%s: the other siblings not visited at once with it within 5 s", d.Info.Name)
		}
	})
	must(t, err)
}
