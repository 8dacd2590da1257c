//go:build unix

package dutree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
)

// makeTree makes a small tree with the odd kinds of entry: hard links
// across directories, a symbolic link, a FIFO, an empty directory, a
// sparse file, names that are not UTF-8 or hold control characters.
func makeTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"a/b/c", "empty", "x/y"} {
		must(os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	write := func(name string, n int) {
		must(os.WriteFile(filepath.Join(root, name), []byte(strings.Repeat("z", n)), 0o644))
	}
	write("a/f", 10000)
	write("a/b/c/deep", 123)
	write("x/y/big", 70000)
	write("bad\xffname", 5)
	write("ctl\x01\ttab\"q\\", 7)
	write("ünï", 9)
	must(os.Link(filepath.Join(root, "a/f"), filepath.Join(root, "x/hl")))
	must(os.Symlink("a/f", filepath.Join(root, "lnk")))
	must(syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	f, err := os.Create(filepath.Join(root, "sparse"))
	must(err)
	must(f.Truncate(1 << 20))
	f.Close()
	settle(t, root)
	return root
}

// du is GNU du's count of dir in bytes: apparent or on disk.
func du(t *testing.T, dir string, apparent bool) int64 {
	t.Helper()
	args := []string{"-s", "-B1", dir}
	if apparent {
		args = []string{"-s", "-b", dir}
	}
	out, err := exec.Command("du", args...).Output()
	if err != nil {
		t.Skipf("GNU du: %v", err)
	}
	n, err := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func count(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(string, os.DirEntry, error) error { n++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return n - 1
}

func TestScanCountsAsDu(t *testing.T) {
	root := makeTree(t)
	for _, workers := range []int{1, 2, 8} {
		tr, errs, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(workers)})
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		d := tr.Top
		if got, want := d.Dsize, du(t, root, false); got != want {
			t.Errorf("workers %d: disk usage %d, du says %d", workers, got, want)
		}
		if got, want := d.Asize, du(t, root, true); got != want {
			t.Errorf("workers %d: apparent size %d, du -b says %d", workers, got, want)
		}
		if got, want := d.Items, count(t, root); got != want {
			t.Errorf("workers %d: %d items, %d entries in the tree", workers, got, want)
		}
		checkKinds(t, tr)
	}
}

func checkKinds(t *testing.T, tr *Tree) {
	t.Helper()
	for path, want := range map[string]Flags{
		"lnk": Symlink | NotReg, "fifo": NotReg, "a/f": HardLink, "x/hl": HardLink, "bad\xffname": 0,
	} {
		n := tr.Find(strings.Split(path, "/"))
		if n == nil {
			t.Errorf("%q missing", path)
		} else if n.Flags&^LinkSeen != want {
			t.Errorf("%q: flags %b, want %b", path, n.Flags, want)
		}
	}
	// One of the two links is counted, the other marked: which, the
	// listing's order says.
	if f, hl := tr.Find([]string{"a", "f"}), tr.Find([]string{"x", "hl"}); (f.Flags^hl.Flags)&LinkSeen == 0 {
		t.Errorf("a/f %b and x/hl %b: exactly one should be LinkSeen", f.Flags, hl.Flags)
	}
	if n := tr.Find([]string{"empty"}); n == nil || n.Dir == nil || n.Dir.Len() != 0 {
		t.Errorf("empty directory: %+v", n)
	}
}

func TestScanExcludes(t *testing.T) {
	root := makeTree(t)
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), Exclude: func(p string) bool {
		return filepath.Base(p) == "x" || filepath.Base(p) == "sparse"
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x", "sparse"} {
		n := tr.Find([]string{name})
		if n == nil || n.Flags&^wasDir != Excluded || n.Dir != nil || n.Dsize != 0 {
			t.Errorf("%s: %+v, want excluded and empty", name, n)
		}
	}
	// x/hl is gone, so a/f is the only link seen: counted.
	if n := tr.Find([]string{"a", "f"}); n.Flags&LinkSeen != 0 || tr.Find([]string{"a"}).Dir.Dsize < n.Dsize {
		t.Errorf("a/f: %+v", n)
	}
}

func TestDeleteUpdatesAncestors(t *testing.T) {
	root := makeTree(t)
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	x := tr.Find([]string{"x"})
	if err := tr.Delete(context.Background(), []string{"x"}, "y"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, "x/y")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("x/y still there: %v", err)
	}
	if got, want := tr.Top.Dsize, du(t, root, false); got != want {
		t.Errorf("after deleting x/y: %d, du says %d", got, want)
	}
	if got, want := x.Dir.Items, count(t, filepath.Join(root, "x")); got != want {
		t.Errorf("x holds %d items, on disk %d", got, want)
	}
	// The counted link goes: the other link is counted now, and the
	// total, as du's, is unchanged.
	before := tr.Top.Dsize
	if err := tr.Delete(context.Background(), []string{"a"}, "f"); err != nil {
		t.Fatal(err)
	}
	if hl := tr.Find([]string{"x", "hl"}); hl.Flags&LinkSeen != 0 {
		t.Errorf("x/hl not counted once a/f is gone")
	}
	if got, want := tr.Top.Dsize, du(t, root, false); got != want || got != before {
		t.Errorf("after deleting a/f: %d (before %d), du says %d", got, before, want)
	}
}

func TestDeleteRefusesWhatChanged(t *testing.T) {
	root := makeTree(t)
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(1)})
	if err != nil {
		t.Fatal(err)
	}
	// A file replaced by another under its name.
	p := filepath.Join(root, "a", "f")
	os.Remove(p)
	os.WriteFile(p, []byte("new"), 0o644)
	if err := tr.Delete(context.Background(), []string{"a"}, "f"); !errors.Is(err, ErrChanged) {
		t.Errorf("replaced file: %v, want ErrChanged", err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the new file was deleted: %v", err)
	}
	// The directory swapped for a symbolic link to another with the same
	// names: nothing there is deleted.
	other := t.TempDir()
	os.MkdirAll(filepath.Join(other, "y"), 0o755)
	x := filepath.Join(root, "x")
	if err := os.Rename(x, x+".old"); err != nil {
		t.Fatal(err)
	}
	os.Symlink(other, x)
	if err := tr.Delete(context.Background(), []string{"x"}, "y"); err == nil {
		t.Errorf("deleted through a symbolic link")
	}
	if _, err := os.Stat(filepath.Join(other, "y")); err != nil {
		t.Errorf("the other tree lost y: %v", err)
	}
	if tr.Find([]string{"x", "y"}) == nil {
		t.Errorf("the tree lost x/y on a refused deletion")
	}
}

func TestRescan(t *testing.T) {
	root := makeTree(t)
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "a", "b", "new"), make([]byte, 50000), 0o644)
	b := tr.Find([]string{"a", "b"})
	if _, err := Rescan(context.Background(), filepath.Join(root, "a", "b"), b, ScanOptions{Walk: walkWorkers(2)}); err != nil {
		t.Fatal(err)
	}
	tr.Recount()
	if got, want := tr.Top.Dsize, du(t, root, false); got != want {
		t.Errorf("after a rescan: %d, du says %d", got, want)
	}
	if tr.Find([]string{"a", "b", "new"}) == nil || tr.Find([]string{"a", "b", "c", "deep"}) == nil {
		t.Errorf("rescanned directory lacks entries")
	}
}

// TestScanMtimesBefore1970: a time before 1970 is counted in whole
// seconds down, as du --time shows it: -1 s is -1, -1.5 s is -2.
func TestScanMtimesBefore1970(t *testing.T) {
	root := t.TempDir()
	want := map[string]int64{}
	for i, mt := range []time.Time{time.Unix(-1, 0), time.Unix(-2, 5e8), time.Unix(0, 0), time.Unix(-3, 999999999)} {
		name := fmt.Sprintf("f%d", i)
		mkfile(t, filepath.Join(root, name), 1)
		if err := os.Chtimes(filepath.Join(root, name), mt, mt); err != nil {
			t.Fatal(err)
		}
		want[name] = int64(math.Floor(float64(mt.UnixNano()) / 1e9))
	}
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(1)})
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range want {
		if n := tr.Find([]string{name}); n == nil || n.Mtime != w {
			t.Errorf("%s: %+v, want mtime %d", name, n, w)
		}
	}
}

// TestCountLinkUnderFollow: in a tree walked through links, each file
// is counted once by its inode whatever its link count; a file whose
// inode is unknown (0) is counted at each entry.
func TestCountLinkUnderFollow(t *testing.T) {
	seen := map[frd.ID]struct{}{}
	var got []bool
	for _, ino := range []uint64{9, 9, 0, 0} {
		k := Node{Name: "f", Ino: ino, Nlink: 1}
		got = append(got, countLink(&k, 1, seen, true))
	}
	if want := []bool{true, false, true, true}; !slices.Equal(got, want) {
		t.Errorf("counted %v, want %v", got, want)
	}
}

func mkfile(t *testing.T, path string, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
}
