package dutree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

func scan(t *testing.T, root string, o ScanOptions) *Tree {
	t.Helper()
	tr, _, err := Scan(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	return tr
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

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

// TestDeleteNeverEntersAMount: a file system mounted inside a directory
// after the scan, a bind mount of the same file system before or after it:
// the deletion leaves what they hold (found by a hostile review: the
// bound directory's files were deleted).
func TestDeleteNeverEntersAMount(t *testing.T) {
	for _, c := range []struct {
		name        string
		before, dir bool // mount before the scan; bind a directory rather than a tmpfs
	}{{"bind after", false, true}, {"bind before", true, true}, {"tmpfs after", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			mkfile(t, filepath.Join(root, "victim", "own"), 10)
			mkfile(t, filepath.Join(outside, "precious"), 10)
			sub := filepath.Join(root, "victim", "sub")
			os.Mkdir(sub, 0o755)
			mount := func() {
				if c.dir {
					testfs.BindMount(t, outside, sub)
				} else {
					testfs.MountTmpfs(t, sub)
					mkfile(t, filepath.Join(sub, "precious"), 10)
				}
			}
			if c.before {
				mount()
			}
			tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
			if !c.before {
				mount()
			}
			err := tr.Delete(nil, "victim")
			if !errors.Is(err, ErrOtherFS) && !errors.Is(err, ErrChanged) {
				t.Errorf("deleted, or failed otherwise: %v", err)
			}
			if !exists(filepath.Join(sub, "precious")) {
				t.Fatalf("the mount's file was deleted")
			}
		})
	}
}

// TestDeleteRefusesTheUnknown: a directory holding an excluded directory
// (its contents never read) is refused before anything goes; entries made
// since the scan stay, the directory with them.
func TestDeleteRefusesTheUnknown(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "proj", "node_modules", "pkg", "big"), 5000)
	mkfile(t, filepath.Join(root, "proj", "src", "main.go"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2), Exclude: func(p string) bool { return filepath.Base(p) == "node_modules" }})
	if err := tr.Delete(nil, "proj"); !errors.Is(err, ErrUnknown) {
		t.Errorf("holding an excluded directory: %v, want ErrUnknown", err)
	}
	if !exists(filepath.Join(root, "proj", "src", "main.go")) || !exists(filepath.Join(root, "proj", "node_modules", "pkg", "big")) {
		t.Fatalf("something was deleted")
	}
	mkfile(t, filepath.Join(root, "proj", "src", "new.go"), 10)
	if err := tr.Delete([]string{"proj"}, "src"); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("with a file made since the scan: %v, want ErrNotEmpty", err)
	}
	if exists(filepath.Join(root, "proj", "src", "main.go")) || !exists(filepath.Join(root, "proj", "src", "new.go")) {
		t.Errorf("main.go (scanned) should be gone, new.go (not scanned) kept")
	}
	// A file gone already: the tree follows.
	os.Remove(filepath.Join(root, "proj", "src", "new.go"))
	tr = scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	os.RemoveAll(filepath.Join(root, "proj", "src"))
	if err := tr.Delete([]string{"proj"}, "src"); !errors.Is(err, ErrGone) || tr.Find([]string{"proj", "src"}) != nil {
		t.Errorf("deleting what is gone: %v, want ErrGone and the entry out of the tree", err)
	}
}

// TestDeleteWhenAboveMoved: a directory above the entry renamed since the
// scan is an error, not a deletion done (the second review: the entry
// left the view, its 3 MB still on disk under the new name).
func TestDeleteWhenAboveMoved(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "a", "big", "f"), 30000)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	os.Rename(filepath.Join(root, "a"), filepath.Join(root, "a2"))
	if err := tr.Delete([]string{"a"}, "big"); !errors.Is(err, ErrAbove) {
		t.Errorf("%v, want ErrAbove", err)
	}
	if tr.Find([]string{"a", "big"}) == nil || !exists(filepath.Join(root, "a2", "big", "f")) {
		t.Errorf("the tree or the disk lost a/big")
	}
}

// TestDeleteExcludedFileByInode: an excluded file replaced since the scan
// is not deleted (the second review: it was, having no inode to check).
func TestDeleteExcludedFileByInode(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "e", "a"), 1)
	mkfile(t, filepath.Join(root, "e", "notes.keep"), 1)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1), Exclude: func(p string) bool { return strings.HasSuffix(p, ".keep") }})
	mkfile(t, filepath.Join(root, "e", "n2"), 2) // another inode, while the old one lives
	os.Rename(filepath.Join(root, "e", "n2"), filepath.Join(root, "e", "notes.keep"))
	if err := tr.Delete(nil, "e"); !errors.Is(err, ErrChanged) {
		t.Errorf("%v, want ErrChanged", err)
	}
	if !exists(filepath.Join(root, "e", "notes.keep")) {
		t.Errorf("the new notes.keep was deleted")
	}
}

// TestDeleteLowersLinkCounts: deleting one of two links leaves the other a
// plain file in the tree, as on disk.
func TestDeleteLowersLinkCounts(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "a", "f"), 5000)
	os.Link(filepath.Join(root, "a", "f"), filepath.Join(root, "g"))
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	if err := tr.Delete(nil, "a"); err != nil {
		t.Fatal(err)
	}
	if g := tr.Find([]string{"g"}); g.Nlink != 1 || g.Flags&(HardLink|LinkSeen) != 0 {
		t.Errorf("g: %d links, flags %b", g.Nlink, g.Flags)
	}
}

// TestDeleteBeyondPathMax deletes at a depth whose path is longer than
// PATH_MAX: each level is opened from its parent.
func TestDeleteBeyondPathMax(t *testing.T) {
	root := t.TempDir()
	var names []string
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 { // 6,060 bytes of path, made one level at a time
		name := strings.Repeat(string(rune('a'+i%26)), 100)
		names = append(names, name)
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		child, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = child
	}
	leaf, err := unix.Openat(fd, "leaf", unix.O_CREAT|unix.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(leaf)
	unix.Close(fd)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	if err := tr.Delete(names, "leaf"); err != nil {
		t.Fatal(err)
	}
	if err := tr.Delete(nil, names[0]); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("left: %v", entries)
	}
}

func TestScanRefusesWhatIsNoDirectory(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "f"), 1)
	for _, p := range []string{filepath.Join(root, "missing"), filepath.Join(root, "f")} {
		if tr, _, err := Scan(context.Background(), p, ScanOptions{}); err == nil {
			t.Errorf("%s: scanned as %+v", p, tr.Root)
		}
	}
}

// TestDeleteDeepUnderLowLimit deletes a 300-level chain with files at
// every level under RLIMIT_NOFILE 16: the directories above are closed and
// found again through "..", so the descriptors stay few (the review: a
// 100-level deletion failed with EMFILE).
func TestDeleteDeepUnderLowLimit(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "top")
	for i := range 300 {
		dir = filepath.Join(dir, "d")
		if i%50 == 0 {
			mkfile(t, filepath.Join(dir, "f"), 10)
		}
	}
	mkfile(t, filepath.Join(dir, "leaf"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	testfs.LimitOpenFiles(t, 16)
	before := testfs.OpenFiles(t)
	if err := tr.Delete(nil, "top"); err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(root, "top")) {
		t.Errorf("top is still there")
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
}

// TestStopsCloseDescriptors: every way a deletion or a rescan ends early
// (a refusal up front, a changed entry, a directory moved above, a mount
// met half-way, a cancelled rescan) leaves the descriptors as it found them.
func TestStopsCloseDescriptors(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a/deep/d/d/d/f", "a/g", "ex/node_modules/x", "m/sub/keep", "v/w/f"} {
		mkfile(t, filepath.Join(root, p), 10)
	}
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2), Exclude: func(p string) bool { return filepath.Base(p) == "node_modules" }})
	testfs.BindMount(t, filepath.Join(root, "a"), filepath.Join(root, "m", "sub"))
	mkfile(t, filepath.Join(root, "a", "g2"), 20) // another inode under the name
	os.Rename(filepath.Join(root, "a", "g2"), filepath.Join(root, "a", "g"))
	os.Rename(filepath.Join(root, "v"), filepath.Join(root, "v2"))
	before := testfs.OpenFiles(t)
	for _, c := range []struct {
		dir  []string
		name string
	}{{nil, "ex"}, {[]string{"a"}, "g"}, {[]string{"v"}, "w"}, {nil, "m"}} {
		if err := tr.Delete(c.dir, c.name); err == nil {
			t.Errorf("deleting %v/%s: no error", c.dir, c.name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Rescan(ctx, root, &tr.Root, ScanOptions{Walk: walkWorkers(2)}); err == nil {
		t.Errorf("a cancelled rescan: no error")
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors before, %d after", before, after)
	}
	if !exists(filepath.Join(root, "a", "deep", "d", "d", "d", "f")) {
		t.Errorf("the bound directory lost a file")
	}
}
