package tree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// wideTree makes n directories of two levels with a file in each, and a
// FIFO deep in the last, so that a clone refusing special files fails in
// the middle of its walk.
func wideTree(t *testing.T, n int) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	for i := range n {
		d := filepath.Join(src, "d"+strconv.Itoa(i), "e")
		must(t, os.MkdirAll(d, 0o755))
		must(t, os.WriteFile(filepath.Join(d, "f"), []byte(strconv.Itoa(i)), 0o644))
	}
	must(t, unix.Mkfifo(filepath.Join(src, "d"+strconv.Itoa(n-1), "e", "fifo"), 0o644))
	return src
}

// TestFailedCloneClosesDescriptors fails 100 clones in the middle of
// their walks and counts the descriptors before and after. -short fails
// 20, five for each number of workers, fewer timings of the failure.
func TestFailedCloneClosesDescriptors(t *testing.T) {
	src := wideTree(t, 60)
	base := t.TempDir()
	runs := 100
	if testing.Short() {
		runs = 20
	}
	before := openFDs(t)
	for i := range runs {
		dst := filepath.Join(base, strconv.Itoa(i))
		if _, err := Clone(src, dst, &Options{Method: Hardlink, Specials: FailOnSpecials, Workers: 1 + i%4}); err == nil {
			t.Fatal("a clone with a FIFO and FailOnSpecials succeeded")
		}
		if _, err := os.Lstat(dst); !os.IsNotExist(err) {
			t.Fatalf("%s left after a failed clone: %v", dst, err)
		}
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after %d failed clones, %d before", after, runs, before)
	}
}

// TestFailedChmodClosesDescriptors fails 100 permission walks in their
// middle (a file removed between its listing and its chmod) and counts
// the descriptors, with the race detector watching the first error.
// -short fails 24, three for each number of workers.
func TestFailedChmodClosesDescriptors(t *testing.T) {
	src := wideTree(t, 60)
	var mu sync.Mutex
	removed := 0
	testHookDir = func(d *walk.Dir) {
		for _, e := range d.Entries {
			if e.Name == "f" {
				mu.Lock()
				removed++
				mu.Unlock()
				os.Remove(filepath.Join(d.Path, e.Name)) // after the listing: the chmod fails
			}
		}
	}
	defer func() { testHookDir = nil }()
	runs := 100
	if testing.Short() {
		runs = 24
	}
	before := openFDs(t)
	for i := range runs {
		if _, err := FilesReadOnly(src, 1+i%8); err == nil {
			t.Fatal("a permission walk whose files vanish succeeded")
		}
		restoreFiles(t, src)
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after %d failed permission walks, %d before", after, runs, before)
	}
	if removed == 0 {
		t.Fatal("the hook removed nothing")
	}
}

func restoreFiles(t *testing.T, src string) {
	t.Helper()
	des, err := os.ReadDir(src)
	must(t, err)
	for _, de := range des {
		must(t, os.WriteFile(filepath.Join(src, de.Name(), "e", "f"), nil, 0o644))
	}
}

// TestCloneLowFileLimit clones with 9, 16 and 48 descriptors free (9 is
// what `ulimit -n 16` leaves a fresh Go program; a clone needs 7) and
// from 1 to 64 workers, every method that works on this file system: the
// clone must fit, with fewer workers if need be, and be complete.
func TestCloneLowFileLimit(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	srcTree(t, src)
	deep := filepath.Join(src, "deep")
	for range 40 {
		must(t, os.MkdirAll(filepath.Join(deep, "side"), 0o755))
		must(t, os.WriteFile(filepath.Join(deep, "side", "f"), []byte("x"), 0o644))
		deep = filepath.Join(deep, "down")
	}
	must(t, os.MkdirAll(deep, 0o755))
	base := t.TempDir()
	for _, lim := range []uint64{9, 16, 48} {
		testfs.LimitFreeFiles(t, lim)
		for _, workers := range []int{1, 2, 8, 64} {
			for _, m := range []Method{Hardlink, Copy} {
				dst := filepath.Join(base, fmt.Sprintf("%d-%d-%s", lim, workers, m))
				before := openFDs(t)
				if _, err := Clone(src, dst, &Options{Method: m, Workers: workers}); err != nil {
					t.Errorf("%d descriptors free, %d workers, %s: %v", lim, workers, m, err)
					continue
				}
				checkClone(t, src, dst, m, false)
				if _, err := FilesReadOnly(dst, workers); err != nil {
					t.Errorf("%d descriptors free, %d workers: FilesReadOnly: %v", lim, workers, err)
				}
				if _, err := DirsWritable(dst, workers); err != nil {
					t.Errorf("%d descriptors free, %d workers: DirsWritable: %v", lim, workers, err)
				}
				if after := openFDs(t); after != before {
					t.Errorf("%d descriptors free, %d workers, %s: %d descriptors open after, %d before", lim, workers, m, after, before)
				}
			}
		}
	}
}

// TestVanishedFilesStopNothing: files removed between their listing and
// their turn are left out of a clone, which succeeds, and a permission
// walk changes every other file before it reports the first it could
// not change, as chmod -R does.
func TestVanishedFilesStopNothing(t *testing.T) {
	src := wideTree(t, 20)
	removed := 0
	var mu sync.Mutex
	testHookDir = func(d *walk.Dir) {
		for _, e := range d.Entries {
			if e.Name == "f" {
				mu.Lock()
				removed++
				mu.Unlock()
				os.Remove(filepath.Join(d.Path, e.Name))
			}
		}
	}
	defer func() { testHookDir = nil }()
	dst := filepath.Join(t.TempDir(), "dst")
	if _, err := Clone(src, dst, &Options{Method: Copy, Workers: 2}); err != nil {
		t.Fatalf("a clone whose source files vanish: %v", err)
	}
	restoreFiles(t, src)
	if _, err := FilesReadOnly(src, 2); err == nil {
		t.Error("a permission walk whose files vanish reported nothing")
	}
	testHookDir = nil
	var writable []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && fi.Mode().Perm()&0o222 != 0 {
				writable = append(writable, p)
			}
		}
		return nil
	})
	if len(writable) > 0 {
		t.Errorf("a file vanishing stopped the permission walk: %d files left writable, %s first", len(writable), writable[0])
	}
	if removed == 0 {
		t.Fatal("the hook removed nothing")
	}
}
