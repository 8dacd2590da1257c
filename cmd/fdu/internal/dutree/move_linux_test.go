package dutree

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// renameTo is a move that renames the entry into dir, as a trash does.
func renameTo(t *testing.T, dir string) func(int, string, func(int, string) error) error {
	return func(fd int, name string, _ func(int, string) error) error {
		return unix.Renameat(fd, name, unix.AT_FDCWD, filepath.Join(dir, name))
	}
}

// TestMoveChecksLikeDelete: a directory and a file move once checked and
// leave the tree, its totals counted again; a file swapped for a link, a
// directory with an entry made since, and a mount below are refused, and
// stay where they are.
func TestMoveChecksLikeDelete(t *testing.T) {
	root, away := t.TempDir(), t.TempDir()
	mkfile(t, filepath.Join(root, "d", "f"), 5000)
	mkfile(t, filepath.Join(root, "d", "sub", "g"), 5000)
	mkfile(t, filepath.Join(root, "file"), 8192)
	mkfile(t, filepath.Join(root, "swapped"), 100)
	mkfile(t, filepath.Join(root, "grown", "a"), 100)
	tr := scan(t, root, ScanOptions{})
	before := tr.Top.Dsize

	if err := tr.Move(ctx, nil, "d", renameTo(t, away)); err != nil {
		t.Fatalf("moving d: %v", err)
	}
	if !exists(filepath.Join(away, "d", "sub", "g")) || exists(filepath.Join(root, "d")) {
		t.Errorf("d was not moved whole: %v", onDisk(t, away))
	}
	file := tr.Find([]string{"file"}).Dsize
	if err := tr.Move(ctx, nil, "file", renameTo(t, away)); err != nil {
		t.Fatalf("moving file: %v", err)
	}
	if got := inTree(&Node{Dir: tr.Top}); !slices.Equal(got, []string{"grown/", "grown/a", "swapped"}) {
		t.Errorf("the tree after the moves: %v", got)
	}
	if tr.Top.Dsize >= before-file {
		t.Errorf("the total was not counted again: %d, before %d", tr.Top.Dsize, before)
	}

	os.Remove(filepath.Join(root, "swapped"))
	os.Symlink("/etc/passwd", filepath.Join(root, "swapped"))
	if err := tr.Move(ctx, nil, "swapped", renameTo(t, away)); !errors.Is(err, ErrChanged) {
		t.Errorf("a file swapped for a link: %v, want ErrChanged", err)
	}
	mkfile(t, filepath.Join(root, "grown", "new"), 1)
	if err := tr.Move(ctx, nil, "grown", renameTo(t, away)); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("a directory with an entry made since: %v, want ErrNotEmpty", err)
	}
	if exists(filepath.Join(away, "swapped")) || exists(filepath.Join(away, "grown")) {
		t.Errorf("a refused entry was moved: %v", onDisk(t, away))
	}
	if got := inTree(&Node{Dir: tr.Top}); !slices.Equal(got, []string{"grown/", "grown/a", "swapped"}) {
		t.Errorf("a refusal changed the tree: %v", got)
	}
}

// TestTruncate: a file is emptied and its sizes in the tree, at every
// link, follow; one replaced by another file or a link since the scan is
// refused and left as it is.
func TestTruncate(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "big"), 1<<20)
	if err := os.Link(filepath.Join(root, "big"), filepath.Join(root, "other")); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(root, "replaced"), 1<<20)
	mkfile(t, filepath.Join(root, "linked"), 1<<20)
	tr := scan(t, root, ScanOptions{})
	if err := tr.Truncate(nil, "big"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(filepath.Join(root, "big")); st.Size() != 0 {
		t.Errorf("big has %d bytes", st.Size())
	}
	for _, name := range []string{"big", "other"} {
		if n := tr.Find([]string{name}); n.Asize != 0 || n.Dsize != 0 {
			t.Errorf("%s in the tree: %d, %d bytes", name, n.Asize, n.Dsize)
		}
	}

	os.Rename(filepath.Join(root, "replaced"), filepath.Join(root, "kept"))
	mkfile(t, filepath.Join(root, "replaced"), 1<<20)
	if err := tr.Truncate(nil, "replaced"); !errors.Is(err, ErrChanged) {
		t.Errorf("a file replaced since the scan: %v, want ErrChanged", err)
	}
	os.Remove(filepath.Join(root, "linked"))
	os.Symlink("kept", filepath.Join(root, "linked"))
	if err := tr.Truncate(nil, "linked"); !errors.Is(err, ErrChanged) {
		t.Errorf("a file replaced by a link: %v, want ErrChanged", err)
	}
	for _, name := range []string{"replaced", "kept"} {
		if st, _ := os.Stat(filepath.Join(root, name)); st.Size() != 1<<20 {
			t.Errorf("%s was emptied", name)
		}
	}
	if err := tr.Truncate(nil, "missing"); err == nil {
		t.Errorf("no error for a name not in the tree")
	}
}

// TestMoveSameSeesASwap: the check Move hands its move function tells the
// entry checked from one another user put under its name after the last
// check, at its new name; the refusal is ErrChanged, and the entry stays
// in the tree.
func TestMoveSameSeesASwap(t *testing.T) {
	root, away := t.TempDir(), t.TempDir()
	mkfile(t, filepath.Join(root, "f"), 100)
	mkfile(t, filepath.Join(root, "d", "g"), 100)
	tr := scan(t, root, ScanOptions{})
	swapIn := func(name string) func(int, string, func(int, string) error) error {
		return func(fd int, _ string, same func(int, string) error) error {
			os.Rename(filepath.Join(root, name), filepath.Join(root, name+".was"))
			mkfile(t, filepath.Join(root, name), 100) // another entry, under the name
			if err := unix.Renameat(fd, name, unix.AT_FDCWD, filepath.Join(away, name)); err != nil {
				return err
			}
			return same(unix.AT_FDCWD, filepath.Join(away, name))
		}
	}
	for _, name := range []string{"f", "d"} {
		if err := tr.Move(ctx, nil, name, swapIn(name)); !errors.Is(err, ErrChanged) {
			t.Errorf("%s swapped before its rename: %v, want ErrChanged", name, err)
		}
		if tr.Find([]string{name}) == nil {
			t.Errorf("%s left the tree", name)
		}
	}
}

// TestMoveSameAcceptsTheEntry: the check Move hands its move function
// passes the entry it checked, at its new name, a file and a directory.
func TestMoveSameAcceptsTheEntry(t *testing.T) {
	root, away := t.TempDir(), t.TempDir()
	mkfile(t, filepath.Join(root, "f"), 100)
	mkfile(t, filepath.Join(root, "d", "g"), 100)
	tr := scan(t, root, ScanOptions{})
	checked := func(fd int, name string, same func(int, string) error) error {
		if err := unix.Renameat(fd, name, unix.AT_FDCWD, filepath.Join(away, name)); err != nil {
			return err
		}
		return same(unix.AT_FDCWD, filepath.Join(away, name))
	}
	for _, name := range []string{"f", "d"} {
		if err := tr.Move(ctx, nil, name, checked); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if tr.Find([]string{name}) != nil || !exists(filepath.Join(away, name)) {
			t.Errorf("%s not moved out of the tree", name)
		}
	}
}

// TestMoveRefusesAChangeAfterItsChecks: an entry replaced, or a directory
// written in, after the checks of what is below it and before the move is
// refused by the last check of the entry itself, and not moved.
func TestMoveRefusesAChangeAfterItsChecks(t *testing.T) {
	root, away := t.TempDir(), t.TempDir()
	mkfile(t, filepath.Join(root, "f"), 100)
	mkfile(t, filepath.Join(root, "d", "g"), 100)
	tr := scan(t, root, ScanOptions{})
	t.Cleanup(func() { AfterChecks = nil })
	AfterChecks = func() {
		os.Rename(filepath.Join(root, "f"), filepath.Join(root, "f.was"))
		mkfile(t, filepath.Join(root, "f"), 100)
	}
	if err := tr.Move(ctx, nil, "f", renameTo(t, away)); !errors.Is(err, ErrChanged) {
		t.Errorf("f replaced after the checks: %v, want ErrChanged", err)
	}
	AfterChecks = func() { mkfile(t, filepath.Join(root, "d", "new"), 1) }
	if err := tr.Move(ctx, nil, "d", renameTo(t, away)); err == nil {
		t.Error("d written in after the checks: moved")
	}
	if got := onDisk(t, away); len(got) > 0 {
		t.Errorf("moved: %v", got)
	}
}

// TestTruncateWithoutBirthTimes: where there is no birth time (ext4 with
// 128-byte inodes), the change a truncation makes to a file's ctime is
// this program's: the file can be deleted after it. Its disk usage after
// is the stat's, here the block its extended attribute takes.
func TestTruncateWithoutBirthTimes(t *testing.T) {
	mnt := testfs.LoopMount(t, "ext4", "-I", "128")
	f := filepath.Join(mnt, "f")
	mkfile(t, f, 1<<16)
	var sx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, f, 0, unix.STATX_BTIME, &sx); err != nil || sx.Mask&unix.STATX_BTIME != 0 {
		t.Skipf("skipping: ext4 with 128-byte inodes gives a birth time (%v)", err)
	}
	if err := unix.Setxattr(f, "user.note", bytes.Repeat([]byte("x"), 200), 0); err != nil {
		t.Skipf("skipping: no user xattr here: %v", err)
	}
	tr := scan(t, mnt, ScanOptions{Walk: walkWorkers(1)})
	if err := tr.Truncate(nil, "f"); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(f, &st); err != nil {
		t.Fatal(err)
	}
	if n := tr.Find([]string{"f"}); n.Asize != 0 || n.Dsize != st.Blocks*512 || st.Blocks == 0 {
		t.Errorf("f after truncation: %d, %d bytes in the tree; %d blocks on disk", n.Asize, n.Dsize, st.Blocks)
	}
	if err := tr.Delete(ctx, nil, "f"); err != nil {
		t.Errorf("deleting f after truncating it: %v", err)
	}
}
