package dutree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

var ctx = context.Background()

// scan scans root once the files made so far are older than the scan by
// the deletion's measure.
func scan(t *testing.T, root string, o ScanOptions) *Tree {
	t.Helper()
	settle(t, root)
	tr, _, err := Scan(ctx, root, o)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

// onDisk lists what dir holds on disk, on its own file system, as sorted
// paths below it; a directory's ends in "/".
func onDisk(t *testing.T, dir string) []string {
	t.Helper()
	var dev uint64
	if st, err := os.Lstat(dir); err == nil {
		dev = st.Sys().(*syscall.Stat_t).Dev
	}
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if e.IsDir() {
			rel += "/"
			if info, err := e.Info(); err == nil && info.Sys().(*syscall.Stat_t).Dev != dev {
				out = append(out, rel)
				return fs.SkipDir // another file system's: not counted
			}
		}
		out = append(out, rel)
		return nil
	})
	slices.Sort(out)
	return out
}

// inTree lists what n holds in the tree, as onDisk does.
func inTree(n *Node) []string {
	var out []string
	var walk func(n *Node, path string)
	walk = func(n *Node, path string) {
		for _, k := range n.Dir.Entries() {
			if k.Dir != nil {
				out = append(out, path+k.Name+"/")
				walk(&k, path+k.Name+"/")
			} else {
				out = append(out, path+k.Name)
			}
		}
	}
	walk(n, "")
	slices.Sort(out)
	return out
}

// TestDeleteRefusesAMountBelowDeletingNothing: a bind mount of another
// directory before the scan, a bind mount of the directory on itself (the
// same device and inode) after it, a tmpfs after it, a file bound on a
// file: the deletion is refused before anything goes, whatever the order
// of the entries.
func TestDeleteRefusesAMountBelowDeletingNothing(t *testing.T) {
	for _, c := range []struct {
		name   string
		before bool
		mount  func(t *testing.T, sub, outside string)
	}{
		{"bind of another directory before the scan", true, func(t *testing.T, sub, outside string) { testfs.BindMount(t, outside, sub) }},
		{"bind on itself after the scan", false, func(t *testing.T, sub, _ string) { testfs.BindMount(t, sub, sub) }},
		{"tmpfs after the scan", false, func(t *testing.T, sub, _ string) {
			testfs.MountTmpfs(t, sub)
			mkfile(t, filepath.Join(sub, "precious"), 10)
		}},
		{"bind of a file on a file after the scan", false, func(t *testing.T, sub, outside string) {
			testfs.BindMount(t, filepath.Join(outside, "precious"), filepath.Join(sub, "own"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			for i := range 20 {
				mkfile(t, filepath.Join(root, "a", fmt.Sprintf("f%02d", i)), 10)
			}
			mkfile(t, filepath.Join(root, "a", "other", "g"), 10)
			mkfile(t, filepath.Join(root, "a", "sub", "own"), 10)
			mkfile(t, filepath.Join(root, "a", "zz", "h"), 10)
			mkfile(t, filepath.Join(outside, "precious"), 10)
			sub := filepath.Join(root, "a", "sub")
			if c.before {
				c.mount(t, sub, outside)
			}
			tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
			if !c.before {
				c.mount(t, sub, outside)
			}
			before := onDisk(t, filepath.Join(root, "a"))
			err := tr.Delete(ctx, nil, "a")
			if !errors.Is(err, ErrOtherFS) || !strings.Contains(err.Error(), "(at a/sub") {
				t.Errorf("%v, want ErrOtherFS at a/sub", err)
			}
			if after := onDisk(t, filepath.Join(root, "a")); !slices.Equal(after, before) {
				t.Errorf("a held %d entries, now %d: %v", len(before), len(after), after)
			}
			if !exists(filepath.Join(sub, "precious")) && !exists(filepath.Join(sub, "own")) {
				t.Errorf("the mount's files were deleted")
			}
			if got := inTree(tr.Find([]string{"a"})); len(got) != 26 {
				t.Errorf("the tree lost entries of a: %v", got)
			}
		})
	}
}

// TestDeleteRefusesTheUnknown: a directory holding an excluded directory
// (its contents never read), or an entry made since the scan, is refused
// before anything goes.
func TestDeleteRefusesTheUnknown(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "proj", "node_modules", "pkg", "big"), 5000)
	mkfile(t, filepath.Join(root, "proj", "src", "main.go"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2), Exclude: func(p string) bool { return filepath.Base(p) == "node_modules" }})
	if err := tr.Delete(ctx, nil, "proj"); !errors.Is(err, ErrUnknown) {
		t.Errorf("holding an excluded directory: %v, want ErrUnknown", err)
	}
	if !exists(filepath.Join(root, "proj", "src", "main.go")) || !exists(filepath.Join(root, "proj", "node_modules", "pkg", "big")) {
		t.Fatalf("something was deleted")
	}
	mkfile(t, filepath.Join(root, "proj", "src", "new.go"), 10)
	if err := tr.Delete(ctx, []string{"proj"}, "src"); !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "src/new.go") {
		t.Errorf("with a file made since the scan: %v, want ErrNotEmpty at src/new.go", err)
	}
	if !exists(filepath.Join(root, "proj", "src", "main.go")) || !exists(filepath.Join(root, "proj", "src", "new.go")) {
		t.Errorf("main.go or new.go deleted")
	}
	// A file gone already: the tree follows.
	os.Remove(filepath.Join(root, "proj", "src", "new.go"))
	tr = scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	os.RemoveAll(filepath.Join(root, "proj", "src"))
	if err := tr.Delete(ctx, []string{"proj"}, "src"); !errors.Is(err, ErrGone) || tr.Find([]string{"proj", "src"}) != nil {
		t.Errorf("deleting what is gone: %v, want ErrGone and the entry out of the tree", err)
	}
}

// TestDeleteTakesExcludedFiles: an excluded file in a deleted directory is
// deleted with it (the browser's confirmation counts it).
func TestDeleteTakesExcludedFiles(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "d", "keep.important"), 10)
	mkfile(t, filepath.Join(root, "d", "x"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1), Exclude: func(p string) bool { return strings.HasSuffix(p, ".important") }})
	if f, d := tr.Find([]string{"d"}).ExcludedBelow(); f != 1 || d != 0 {
		t.Errorf("ExcludedBelow: %d, %d", f, d)
	}
	if err := tr.Delete(ctx, nil, "d"); err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(root, "d")) {
		t.Errorf("d is still there")
	}
}

// TestDeleteWhenAboveMoved: a directory above the entry renamed since the
// scan is an error, not a deletion done: the entry stays in the view and
// on disk.
func TestDeleteWhenAboveMoved(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "a", "big", "f"), 30000)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	os.Rename(filepath.Join(root, "a"), filepath.Join(root, "a2"))
	if err := tr.Delete(ctx, []string{"a"}, "big"); !errors.Is(err, ErrAbove) {
		t.Errorf("%v, want ErrAbove", err)
	}
	if tr.Find([]string{"a", "big"}) == nil || !exists(filepath.Join(root, "a2", "big", "f")) {
		t.Errorf("the tree or the disk lost a/big")
	}
}

// TestDeleteExcludedFileByInode: an excluded file replaced since the scan
// (another inode under its name) makes the deletion refused, nothing of
// the directory deleted.
func TestDeleteExcludedFileByInode(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "e", "a"), 1)
	mkfile(t, filepath.Join(root, "e", "notes.keep"), 1)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1), Exclude: func(p string) bool { return strings.HasSuffix(p, ".keep") }})
	mkfile(t, filepath.Join(root, "e", "n2"), 2) // another inode, while the old one lives
	os.Rename(filepath.Join(root, "e", "n2"), filepath.Join(root, "e", "notes.keep"))
	if err := tr.Delete(ctx, nil, "e"); !errors.Is(err, ErrChanged) {
		t.Errorf("%v, want ErrChanged", err)
	}
	if !exists(filepath.Join(root, "e", "notes.keep")) || !exists(filepath.Join(root, "e", "a")) {
		t.Errorf("an entry of e was deleted")
	}
}

// TestDeleteLowersLinkCounts: deleting one of two links leaves the other a
// plain file in the tree, as on disk; two links to one file in the deleted
// directory both go, the second after the first changed its ctime.
func TestDeleteLowersLinkCounts(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "a", "f"), 5000)
	os.Link(filepath.Join(root, "a", "f"), filepath.Join(root, "g"))
	os.Link(filepath.Join(root, "a", "f"), filepath.Join(root, "a", "f2"))
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	if err := tr.Delete(ctx, nil, "a"); err != nil {
		t.Fatal(err)
	}
	if g := tr.Find([]string{"g"}); g.Nlink != 1 || g.Flags&(HardLink|LinkSeen) != 0 {
		t.Errorf("g: %d links, flags %b", g.Nlink, g.Flags)
	}
	if err := tr.Delete(ctx, nil, "g"); err != nil {
		t.Errorf("g, whose ctime the first deletion changed: %v", err)
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
	if err := tr.Delete(ctx, names, "leaf"); err != nil {
		t.Fatal(err)
	}
	if err := tr.Delete(ctx, nil, names[0]); err != nil {
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
		if tr, _, err := Scan(ctx, p, ScanOptions{}); err == nil {
			t.Errorf("%s: scanned as %+v", p, tr.Root())
		}
	}
}

// chain makes top and depth directories below it, each named d and holding
// a file f, and returns the deepest.
func chain(t *testing.T, top string, depth int) string {
	t.Helper()
	dir := top
	for range depth {
		dir = filepath.Join(dir, "d")
		mkfile(t, filepath.Join(dir, "f"), 10)
	}
	return dir
}

// TestDeleteDeepUnderLowLimit deletes a 300-level chain with files at
// every level under RLIMIT_NOFILE 16: the directories above are closed and
// found again through "..", so the descriptors stay few.
func TestDeleteDeepUnderLowLimit(t *testing.T) {
	root := t.TempDir()
	chain(t, filepath.Join(root, "top"), 300)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	testfs.LimitOpenFiles(t, 16)
	before := testfs.OpenFiles(t)
	if err := tr.Delete(ctx, nil, "top"); err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(root, "top")) {
		t.Errorf("top is still there")
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
}

// TestDeleteDepth50UnderLimit16: under RLIMIT_NOFILE 16, a mount 50 levels
// down makes the deletion refused with nothing deleted; without one, the
// 50 levels go.
func TestDeleteDepth50UnderLimit16(t *testing.T) {
	root := t.TempDir()
	deepest := chain(t, filepath.Join(root, "mounted"), 50)
	chain(t, filepath.Join(root, "plain"), 50)
	testfs.BindMount(t, deepest, deepest)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	testfs.LimitOpenFiles(t, 16)
	before := testfs.OpenFiles(t)
	want := onDisk(t, filepath.Join(root, "mounted"))
	if err := tr.Delete(ctx, nil, "mounted"); !errors.Is(err, ErrOtherFS) {
		t.Errorf("a mount 50 levels down: %v, want ErrOtherFS", err)
	}
	if got := onDisk(t, filepath.Join(root, "mounted")); len(got) != len(want) || len(want) < 100 {
		t.Errorf("%d entries before, %d after the refusal", len(want), len(got))
	}
	if err := tr.Delete(ctx, nil, "plain"); err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(root, "plain")) {
		t.Errorf("plain is still there")
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
}

// TestDeleteRefusesAReusedInode: on ext4 a freed inode number is given to
// the next file made at once. A directory removed since the scan and made
// again with its files under the scanned inode numbers, and a file
// likewise, are not the ones scanned: refused, nothing deleted.
func TestDeleteRefusesAReusedInode(t *testing.T) {
	mnt := testfs.LoopMount(t, "ext4")
	top := filepath.Join(mnt, "t")
	build := func() {
		mkfile(t, filepath.Join(top, "d", "f"), 100)
		mkfile(t, filepath.Join(top, "d", "sub", "g"), 100)
	}
	build()
	tr := scan(t, mnt, ScanOptions{Walk: walkWorkers(1)})
	d := tr.Find([]string{"t", "d"})
	var ino uint64
	for try := 0; ; try++ {
		os.RemoveAll(filepath.Join(top, "d"))
		build()
		st, _ := os.Lstat(filepath.Join(top, "d"))
		if ino = st.Sys().(*syscall.Stat_t).Ino; ino == d.Ino {
			break
		}
		if try == 20 {
			t.Skipf("skipping: ext4 never gave d its inode %d again (%d)", d.Ino, ino)
		}
	}
	if err := tr.Delete(ctx, []string{"t"}, "d"); !errors.Is(err, ErrChanged) {
		t.Errorf("a directory made since under the scanned inode: %v, want ErrChanged", err)
	}
	for _, p := range []string{"d/f", "d/sub/g"} {
		if !exists(filepath.Join(top, p)) {
			t.Errorf("%s, made since the scan, was deleted", p)
		}
	}

	mkfile(t, filepath.Join(top, "one"), 100)
	tr = scan(t, mnt, ScanOptions{Walk: walkWorkers(1)})
	one := tr.Find([]string{"t", "one"})
	for try := 0; ; try++ {
		os.Remove(filepath.Join(top, "one"))
		mkfile(t, filepath.Join(top, "one"), 100)
		st, _ := os.Lstat(filepath.Join(top, "one"))
		if ino = st.Sys().(*syscall.Stat_t).Ino; ino == one.Ino {
			break
		}
		if try == 20 {
			t.Skipf("skipping: ext4 never gave one its inode %d again (%d)", one.Ino, ino)
		}
	}
	if err := tr.Delete(ctx, []string{"t"}, "one"); !errors.Is(err, ErrChanged) {
		t.Errorf("a file made since under the scanned inode: %v, want ErrChanged", err)
	}
	if !exists(filepath.Join(top, "one")) {
		t.Errorf("one, made since the scan, was deleted")
	}
}

// stopTree makes root/a with files f00 to f19, then sub with three files,
// then zz with two, and scans it. It returns the tree and the disk usage
// the scan found of each entry below a.
func stopTree(t *testing.T) (string, *Tree, map[string]int64) {
	t.Helper()
	root := t.TempDir()
	for i := range 20 {
		mkfile(t, filepath.Join(root, "a", fmt.Sprintf("f%02d", i)), 1000*(i+1))
	}
	for _, p := range []string{"sub/s1", "sub/s2", "sub/s3", "zz/z1", "zz/z2"} {
		mkfile(t, filepath.Join(root, "a", p), 5000)
	}
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2)})
	sizes := map[string]int64{}
	var walk func(n *Node, path string)
	walk = func(n *Node, path string) {
		for _, k := range n.Dir.Entries() {
			if k.Dir != nil {
				sizes[path+k.Name+"/"] = k.Dsize
				walk(&k, path+k.Name+"/")
			} else {
				sizes[path+k.Name] = k.Dsize
			}
		}
	}
	walk(tr.Find([]string{"a"}), "")
	sizes[""] = tr.Find([]string{"a"}).Dsize
	return root, tr, sizes
}

// checkStopped checks that err is a *StoppedError whose counts are what
// went from disk, and that the tree holds what is left but for the
// entries made since the scan.
func checkStopped(t *testing.T, err error, root string, tr *Tree, sizes map[string]int64, made ...string) *StoppedError {
	t.Helper()
	var st *StoppedError
	if !errors.As(err, &st) {
		t.Fatalf("%v, want a *StoppedError", err)
	}
	left := slices.DeleteFunc(onDisk(t, filepath.Join(root, "a")), func(p string) bool { return slices.Contains(made, p) })
	var files, dirs, bytes int64
	for p, size := range sizes {
		if p != "" && !slices.Contains(left, p) {
			if strings.HasSuffix(p, "/") {
				dirs++
			} else {
				files++
			}
			bytes += size
		}
	}
	if st.Files != files || st.Dirs != dirs || st.Bytes != bytes || st.Left != int64(len(left))+1 {
		t.Errorf("%+v; on disk %d files and %d directories (%d bytes) went, %d entries are left", st, files, dirs, bytes, len(left)+1)
	}
	if files == 0 {
		t.Errorf("nothing deleted before the stop: the test shows nothing")
	}
	if a := tr.Find([]string{"a"}); a == nil || !slices.Equal(inTree(a), left) {
		t.Errorf("the tree holds %v, the disk %v", inTree(a), left)
	}
	return st
}

// TestDeleteStopsAtAChangeBetweenThePhases: a file made in a/sub once the
// checks have passed stops the deletion on the way into sub, before
// anything there goes, and the error counts what went.
func TestDeleteStopsAtAChangeBetweenThePhases(t *testing.T) {
	root, tr, sizes := stopTree(t)
	AfterChecks = func() { mkfile(t, filepath.Join(root, "a", "sub", "new"), 1) }
	t.Cleanup(func() { AfterChecks = nil })
	err := tr.Delete(ctx, nil, "a")
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "(at a/sub)") {
		t.Errorf("%v, want ErrChanged at a/sub", err)
	}
	checkStopped(t, err, root, tr, sizes, "sub/new")
	for _, p := range []string{"s1", "s2", "s3", "new"} {
		if !exists(filepath.Join(root, "a", "sub", p)) {
			t.Errorf("sub/%s deleted", p)
		}
	}
}

// TestDeleteStopsAtAFileReplacedMidway: a file replaced while the deletion
// runs stops it there: what came before is gone, the new file and what
// follows stay.
func TestDeleteStopsAtAFileReplacedMidway(t *testing.T) {
	root, tr, sizes := stopTree(t)
	a := tr.Find([]string{"a"})
	var last string
	for _, k := range a.Dir.Entries() {
		if k.Dir == nil {
			last = k.Name
		}
	}
	n := 0
	BeforeUnlink = func() {
		if n++; n == 3 {
			p := filepath.Join(root, "a", last)
			mkfile(t, p+".new", 1)
			os.Rename(p+".new", p)
		}
	}
	t.Cleanup(func() { BeforeUnlink = nil })
	err := tr.Delete(ctx, nil, "a")
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "(at a/"+last+")") {
		t.Errorf("%v, want ErrChanged at a/%s", err, last)
	}
	checkStopped(t, err, root, tr, sizes)
}

// TestDeleteStopsWhenCancelled: a context done during the deletion stops
// it at the next entry, its cause the error's.
func TestDeleteStopsWhenCancelled(t *testing.T) {
	root, tr, sizes := stopTree(t)
	c, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := errors.New("a signal")
	n := 0
	BeforeUnlink = func() {
		if n++; n == 5 {
			cancel(stop)
		}
	}
	t.Cleanup(func() { BeforeUnlink = nil })
	err := tr.Delete(c, nil, "a")
	if !errors.Is(err, stop) {
		t.Errorf("%v, want the cause", err)
	}
	if st := checkStopped(t, err, root, tr, sizes); st.Files+st.Dirs != 5 {
		t.Errorf("%d files and %d directories deleted, want 5 in all", st.Files, st.Dirs)
	}
}

// TestStopsCloseDescriptors: every way a deletion or a rescan ends early
// leaves the descriptors as it found them: refusals from the tree, from
// the first phase deep in the tree (a mount, a changed file, a new entry),
// a directory moved above, a stop in the second phase, a cancelled
// context in either phase, a cancelled rescan.
func TestStopsCloseDescriptors(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a/g", "ex/node_modules/x", "v/w/f"} {
		mkfile(t, filepath.Join(root, p), 10)
	}
	for _, top := range []string{"mnt", "chg", "new", "stop", "cancel1", "cancel2"} {
		chain(t, filepath.Join(root, top), 20)
	}
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(2), Exclude: func(p string) bool { return filepath.Base(p) == "node_modules" }})
	deep := filepath.Join(strings.Repeat("d/", 19), "d")
	testfs.BindMount(t, filepath.Join(root, "a"), filepath.Join(root, "mnt", deep))
	mkfile(t, filepath.Join(root, "chg", deep, "f2"), 20) // another inode under the name
	os.Rename(filepath.Join(root, "chg", deep, "f2"), filepath.Join(root, "chg", deep, "f"))
	mkfile(t, filepath.Join(root, "new", deep, "made"), 1)
	os.Rename(filepath.Join(root, "v"), filepath.Join(root, "v2"))
	before := testfs.OpenFiles(t)
	for _, c := range []struct {
		dir  []string
		name string
		want error
	}{{nil, "ex", ErrUnknown}, {nil, "mnt", ErrOtherFS}, {nil, "chg", ErrChanged}, {nil, "new", ErrNotEmpty}, {[]string{"v"}, "w", ErrAbove}} {
		if err := tr.Delete(ctx, c.dir, c.name); !errors.Is(err, c.want) {
			t.Errorf("deleting %v/%s: %v, want %v", c.dir, c.name, err, c.want)
		}
		if after := testfs.OpenFiles(t); after != before {
			t.Errorf("deleting %v/%s: %d descriptors before, %d after", c.dir, c.name, before, after)
		}
	}
	cases := []struct {
		name        string
		afterChecks func(cancel func())
		unlink      func(cancel func(), n int)
	}{
		{"stop", func(func()) { mkfile(t, filepath.Join(root, "stop", deep, "made"), 1) }, nil},
		{"cancel1", func(cancel func()) { cancel() }, nil},
		{"cancel2", nil, func(cancel func(), n int) {
			if n == 30 {
				cancel()
			}
		}},
	}
	for _, c := range cases {
		cctx, cancel := context.WithCancel(ctx)
		n := 0
		if c.afterChecks != nil {
			AfterChecks = func() { c.afterChecks(cancel) }
		}
		if c.unlink != nil {
			BeforeUnlink = func() { n++; c.unlink(cancel, n) }
		}
		var st *StoppedError
		if err := tr.Delete(cctx, nil, c.name); !errors.As(err, &st) {
			t.Errorf("%s: %v, want a *StoppedError", c.name, err)
		}
		AfterChecks, BeforeUnlink = nil, nil
		cancel()
		if after := testfs.OpenFiles(t); after != before {
			t.Errorf("%s: %d descriptors before, %d after", c.name, before, after)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	top := tr.Root()
	if _, err := Rescan(cctx, root, &top, ScanOptions{Walk: walkWorkers(2)}); err == nil {
		t.Errorf("a cancelled rescan: no error")
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors before, %d after", before, after)
	}
	if !exists(filepath.Join(root, "a", "g")) {
		t.Errorf("the bound directory lost a file")
	}
}

// TestDeleteRefusesWhatCannotBeDeleted: on a file system mounted read-only
// the deletion is refused by the first phase, not stopped by the second.
func TestDeleteRefusesWhatCannotBeDeleted(t *testing.T) {
	dir := t.TempDir()
	testfs.MountTmpfs(t, dir)
	mkfile(t, filepath.Join(dir, "a", "f"), 10)
	mkfile(t, filepath.Join(dir, "a", "sub", "g"), 10)
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("skipping: remount read-only: %v: %s", err, out)
	}
	tr := scan(t, dir, ScanOptions{Walk: walkWorkers(1)})
	err := tr.Delete(ctx, nil, "a")
	var st *StoppedError
	if !errors.Is(err, unix.EROFS) || errors.As(err, &st) {
		t.Errorf("%v, want EROFS from the checks", err)
	}
	if got := inTree(tr.Find([]string{"a"})); len(got) != 3 {
		t.Errorf("the tree holds %v", got)
	}
}

// TestDeleteOnOverlayfs: overlayfs copies a lower directory up to delete
// in it, which gives it a new birth time and ctime (its inode number
// stays): deleting a tree of the lower layer, and its directory after one
// of its files, goes through.
func TestDeleteOnOverlayfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting an overlayfs needs root")
	}
	base := t.TempDir()
	lower, upper, work, mnt := filepath.Join(base, "lower"), filepath.Join(base, "upper"), filepath.Join(base, "work"), filepath.Join(base, "mnt")
	for _, p := range []string{"a/f1", "a/f2", "a/sub/g1", "a/sub/g2", "a/sub/deep/h", "b/sub/g", "b/f", "o/e/f"} {
		mkfile(t, filepath.Join(lower, p), 10)
	}
	for _, p := range []string{"c/sub/e", "d/s/x", "d/s/z"} { // deletions of directories only
		os.MkdirAll(filepath.Join(lower, p), 0o755)
	}
	for _, d := range []string{upper, work, mnt} {
		os.Mkdir(d, 0o755)
	}
	if out, err := exec.Command("mount", "-t", "overlay", "overlay", "-o", "lowerdir="+lower+",upperdir="+upper+",workdir="+work, mnt).CombinedOutput(); err != nil {
		t.Skipf("skipping: mount overlayfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	tr := scan(t, mnt, ScanOptions{Walk: walkWorkers(2)})
	if err := tr.Delete(ctx, nil, "a"); err != nil {
		t.Errorf("a: %v", err)
	}
	if err := tr.Delete(ctx, []string{"b", "sub"}, "g"); err != nil {
		t.Errorf("b/sub/g: %v", err)
	}
	if err := tr.Delete(ctx, nil, "b"); err != nil {
		t.Errorf("b, after b/sub/g: %v", err)
	}
	if err := tr.Delete(ctx, []string{"c", "sub"}, "e"); err != nil {
		t.Errorf("c/sub/e: %v", err)
	}
	if err := tr.Delete(ctx, nil, "c"); err != nil {
		t.Errorf("c, after c/sub/e: %v", err)
	}
	// Stopped after one empty directory of d/s: d, copied up, not itself
	// changed, is left with a birth time of this program's.
	cctx, cancel := context.WithCancel(ctx)
	BeforeUnlink = cancel
	var st *StoppedError
	if err := tr.Delete(cctx, nil, "d"); !errors.As(err, &st) || st.Dirs != 1 {
		t.Errorf("d, stopped: %v, want a *StoppedError after one directory", err)
	}
	BeforeUnlink = nil
	if err := tr.Delete(ctx, nil, "d"); err != nil {
		t.Errorf("d, after a stop: %v", err)
	}
	// Stopped with nothing deleted, o/e/f removed by another just before
	// its unlink: the birth times that gave o and e are not this program's.
	cctx, cancel = context.WithCancel(ctx)
	BeforeUnlink = func() {
		os.Remove(filepath.Join(mnt, "o", "e", "f"))
		cancel()
	}
	if err := tr.Delete(cctx, []string{"o"}, "e"); !errors.As(err, &st) || st.Files+st.Dirs != 0 {
		t.Errorf("o/e, stopped: %v, want a *StoppedError with nothing deleted", err)
	}
	BeforeUnlink = nil
	if err := tr.Delete(ctx, []string{"o"}, "e"); !errors.Is(err, ErrChanged) {
		t.Errorf("o/e, copied up by another: %v, want ErrChanged", err)
	}
	if err := tr.Delete(ctx, nil, "o"); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "(at o)") {
		t.Errorf("o, copied up by another: %v, want ErrChanged at o", err)
	}
	os.RemoveAll(filepath.Join(mnt, "o"))
	if got := onDisk(t, mnt); len(got) != 0 {
		t.Errorf("left: %v", got)
	}
}

// TestDeleteKeepsToTheBudget: with descriptors to spare, a deletion holds
// exactly openBudget directories open at its deepest, plus the entry's
// directory, and no more after climbing one chain and going down another:
// the count of open directories follows every open and close.
func TestDeleteKeepsToTheBudget(t *testing.T) {
	root := t.TempDir()
	chain(t, filepath.Join(root, "top", "a"), 20)
	chain(t, filepath.Join(root, "top", "b"), 20)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	before := testfs.OpenFiles(t)
	peak := 0
	BeforeUnlink = func() { peak = max(peak, testfs.OpenFiles(t)) }
	defer func() { BeforeUnlink = nil }()
	if err := tr.Delete(ctx, nil, "top"); err != nil {
		t.Fatal(err)
	}
	if want := before + openBudget + 1; peak != want {
		t.Errorf("at most %d descriptors open during the deletion, want %d (%d before)", peak, want, before)
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
}

// TestDeleteLowersLinkCountsAsTheDisk: the link count the tree keeps of a
// file left follows the disk's: three links, one deleted, then two; and a
// count the tree holds from before a link was made (its directory
// rescanned since) is lowered to the one left, not below.
func TestDeleteLowersLinkCountsAsTheDisk(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "a", "f"), 5000)
	os.Mkdir(filepath.Join(root, "b"), 0o755)
	os.Link(filepath.Join(root, "a", "f"), filepath.Join(root, "b", "g"))
	os.Link(filepath.Join(root, "a", "f"), filepath.Join(root, "h"))
	mkfile(t, filepath.Join(root, "c", "x"), 5000)
	os.Link(filepath.Join(root, "c", "x"), filepath.Join(root, "z"))
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	os.Link(filepath.Join(root, "c", "x"), filepath.Join(root, "c", "y"))
	settle(t, root)
	if _, err := Rescan(ctx, filepath.Join(root, "c"), tr.Find([]string{"c"}), ScanOptions{Walk: walkWorkers(1)}); err != nil {
		t.Fatal(err)
	}
	tr.Recount()
	check := func(name string, hard bool) {
		t.Helper()
		st, err := os.Lstat(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		n := tr.Find([]string{name})
		if want := uint32(st.Sys().(*syscall.Stat_t).Nlink); n.Nlink != want || (n.Flags&HardLink != 0) != hard {
			t.Errorf("%s: %d links, flags %b; want %d links, a hard link %v", name, n.Nlink, n.Flags, want, hard)
		}
	}
	for _, c := range []struct {
		del  string
		left string
		hard bool
	}{{"a", "h", true}, {"b", "h", false}, {"c", "z", false}} {
		if err := tr.Delete(ctx, nil, c.del); err != nil {
			t.Fatalf("deleting %s: %v", c.del, err)
		}
		check(c.left, c.hard)
	}
}

// TestDeleteRefusesANameInAnEmptyDirectory: a name made since the scan in
// a directory the scan found empty is refused as any other new name.
func TestDeleteRefusesANameInAnEmptyDirectory(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "empty"), 0o755)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	mkfile(t, filepath.Join(root, "a", "empty", "new"), 1)
	if err := tr.Delete(ctx, nil, "a"); !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "(at a/empty/new)") {
		t.Errorf("%v, want ErrNotEmpty at a/empty/new", err)
	}
	if !exists(filepath.Join(root, "a", "empty", "new")) {
		t.Errorf("new was deleted")
	}
}

// TestDeleteTakesSymbolicLinks: a symbolic link scanned as one is deleted,
// not followed: its target stays.
func TestDeleteTakesSymbolicLinks(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "target"), 10)
	os.Mkdir(filepath.Join(root, "d"), 0o755)
	os.Symlink(filepath.Join(root, "target"), filepath.Join(root, "d", "link"))
	os.Symlink(filepath.Join(root, "target"), filepath.Join(root, "link"))
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	for _, name := range []string{"d", "link"} {
		if err := tr.Delete(ctx, nil, name); err != nil {
			t.Errorf("deleting %s: %v", name, err)
		}
	}
	if got := onDisk(t, root); !slices.Equal(got, []string{"target"}) {
		t.Errorf("left on disk: %v, want only target", got)
	}
}

// TestDeleteNamesTheDirectoryAboveAtFault: a mount since the scan on a
// directory above the entry refuses the deletion, naming that directory.
func TestDeleteNamesTheDirectoryAboveAtFault(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "p", "q", "f"), 10)
	mkfile(t, filepath.Join(root, "p", "q", "r", "f"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	testfs.BindMount(t, filepath.Join(root, "p", "q"), filepath.Join(root, "p", "q"))
	for _, c := range []struct {
		dir  []string
		want string
	}{{[]string{"p", "q"}, "(at p/q)"}, {[]string{"p", "q", "r"}, "(at p/q)"}} {
		if err := tr.Delete(ctx, c.dir, "f"); !errors.Is(err, ErrOtherFS) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("deleting %v/f: %v, want ErrOtherFS %s", c.dir, err, c.want)
		}
	}
	if !exists(filepath.Join(root, "p", "q", "f")) || !exists(filepath.Join(root, "p", "q", "r", "f")) {
		t.Errorf("an f was deleted")
	}
}

// TestDeleteFollowsWhatWentOtherwise: a deletion that deletes nothing, a
// file gone under it and a name made, still takes the gone file out of
// the tree and counts the tree again.
func TestDeleteFollowsWhatWentOtherwise(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "a", "f"), 50000)
	mkfile(t, filepath.Join(root, "g"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	BeforeUnlink = func() {
		os.Remove(filepath.Join(root, "a", "f"))
		mkfile(t, filepath.Join(root, "a", "new"), 1)
	}
	defer func() { BeforeUnlink = nil }()
	var st *StoppedError
	if err := tr.Delete(ctx, nil, "a"); !errors.As(err, &st) || !errors.Is(err, ErrNotEmpty) || st.Files+st.Dirs != 0 {
		t.Fatalf("%v, want a *StoppedError with nothing deleted, ErrNotEmpty", err)
	}
	if tr.Find([]string{"a", "f"}) != nil {
		t.Errorf("a/f, gone, is still in the tree")
	}
	if tr.Top.Items != 2 {
		t.Errorf("the top counts %d entries below it, want 2 (a, g)", tr.Top.Items)
	}
}

// TestDeleteChecksTheDirectoryFoundThroughDotDot: a directory moved during
// the deletion, above the open ones, out from under the entry: climbing
// back through "..", the deletion finds another directory than the one
// above and stops there, deleting nothing of it.
func TestDeleteChecksTheDirectoryFoundThroughDotDot(t *testing.T) {
	root := t.TempDir()
	fifth := filepath.Join(root, "top", "d", "d", "d", "d", "d")
	mkfile(t, filepath.Join(fifth, strings.Repeat("d/", 15), "f"), 10)
	mkfile(t, filepath.Join(root, "other", "keep"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	moved := false
	BeforeUnlink = func() {
		if !moved { // at the deepest, the fifth level long closed
			moved = true
			if err := os.Rename(fifth, filepath.Join(root, "other", "d")); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { BeforeUnlink = nil }()
	if err := tr.Delete(ctx, nil, "top"); !errors.Is(err, ErrChanged) {
		t.Errorf("%v, want ErrChanged", err)
	}
	if got := onDisk(t, filepath.Join(root, "other")); !slices.Equal(got, []string{"d/", "keep"}) {
		t.Errorf("other holds %v, want d/ and keep", got)
	}
}

// TestDeleteWithStandardInputClosed: run with descriptor 0 closed, a
// deletion opens a directory as 0, a descriptor like any other, and
// closes it at the end.
func TestDeleteWithStandardInputClosed(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "x", "a", "b", "c", "f"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	closeStdin(t)
	before := testfs.OpenFiles(t)
	if err := tr.Delete(ctx, []string{"x"}, "a"); err != nil {
		t.Fatal(err)
	}
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
	if got := onDisk(t, root); !slices.Equal(got, []string{"x/"}) {
		t.Errorf("left on disk: %v", got)
	}
}

// TestDeleteInThreeFreeDescriptors: with descriptor 0 closed and only two
// more free (one for the entry's directory), a deletion 6 levels deep
// still goes, closing the directories above as the limit meets it, 0 (the
// first opened) among them.
func TestDeleteInThreeFreeDescriptors(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "x", "a", "b", "c", "d", "e", "f"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	closeStdin(t)
	des, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	inUse := map[string]bool{}
	for _, e := range des {
		inUse[e.Name()] = true
	}
	delete(inUse, "0") // ReadDir's own, closed
	limit, free := uint64(0), 0
	for ; free < 3; limit++ { // the lowest limit that leaves 3 free
		if !inUse[fmt.Sprint(limit)] {
			free++
		}
	}
	var old syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old)
	lim := old
	lim.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	err = tr.Delete(ctx, []string{"x"}, "a")
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	if err != nil {
		t.Fatal(err)
	}
	if got := onDisk(t, root); !slices.Equal(got, []string{"x/"}) {
		t.Errorf("left on disk: %v", got)
	}
}

// TestDeleteOfAFileGoneRecordsNothing: where times are not exact and
// there is no birth time (ext4 with small inodes), a file found gone in
// the second phase is no change of this program's: its directory, changed
// by another, is refused; one whose file it deleted is not.
func TestDeleteOfAFileGoneRecordsNothing(t *testing.T) {
	mnt := testfs.LoopMount(t, "ext4", "-I", "128")
	for _, p := range []string{"x/f", "x/g", "y/f", "y/g"} {
		mkfile(t, filepath.Join(mnt, p), 10)
	}
	var sx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, mnt, 0, unix.STATX_BTIME, &sx); err != nil || sx.Mask&unix.STATX_BTIME != 0 {
		t.Skipf("skipping: ext4 with 128-byte inodes gives a birth time (%v)", err)
	}
	tr := scan(t, mnt, ScanOptions{Walk: walkWorkers(1)})
	if err := tr.Delete(ctx, []string{"x"}, "f"); err != nil {
		t.Errorf("x/f: %v", err)
	}
	if err := tr.Delete(ctx, nil, "x"); err != nil {
		t.Errorf("x, after x/f: %v", err)
	}
	AfterChecks = func() { os.Remove(filepath.Join(mnt, "y", "f")) }
	t.Cleanup(func() { AfterChecks = nil })
	if err := tr.Delete(ctx, []string{"y"}, "f"); err != nil {
		t.Errorf("y/f, removed by another between the phases: %v", err)
	}
	AfterChecks = nil
	if err := tr.Delete(ctx, nil, "y"); !errors.Is(err, ErrChanged) {
		t.Errorf("y, after another removed y/f: %v, want ErrChanged", err)
	}
	if !exists(filepath.Join(mnt, "y", "g")) {
		t.Errorf("y/g deleted")
	}
}

// TestDeleteRefusesAFileReplacedBeforehand: a file replaced since the
// scan is refused by the first phase, not stopped at by the second.
func TestDeleteRefusesAFileReplacedBeforehand(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "f")
	mkfile(t, p, 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	mkfile(t, p+".new", 10)
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	var st *StoppedError
	if err := tr.Delete(ctx, nil, "f"); !errors.Is(err, ErrChanged) || errors.As(err, &st) {
		t.Errorf("%v, want ErrChanged refused before any deletion", err)
	}
	if !exists(p) {
		t.Errorf("f, made since the scan, was deleted")
	}
}

// TestDeleteStopsAtADirectorySwappedWhileEmptied: a directory moved away
// while its files are deleted, an empty one made under its name, is
// emptied where it went; the new one is kept.
func TestDeleteStopsAtADirectorySwappedWhileEmptied(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "x", "f"), 10)
	tr := scan(t, root, ScanOptions{Walk: walkWorkers(1)})
	n := 0
	BeforeUnlink = func() {
		if n++; n == 1 {
			os.Rename(filepath.Join(root, "x"), filepath.Join(root, "x.old"))
			os.Mkdir(filepath.Join(root, "x"), 0o755)
		}
	}
	t.Cleanup(func() { BeforeUnlink = nil })
	var st *StoppedError
	if err := tr.Delete(ctx, nil, "x"); !errors.Is(err, ErrChanged) || !errors.As(err, &st) || st.Files != 1 {
		t.Errorf("%v, want a *StoppedError (ErrChanged) after one file", err)
	}
	if got := onDisk(t, root); !slices.Equal(got, []string{"x.old/", "x/"}) {
		t.Errorf("left %v, want x (made since) and x.old (emptied)", got)
	}
}

// closeStdin closes descriptor 0 for the test, so that the next one
// opened is 0, and puts it back at the end.
func closeStdin(t *testing.T) {
	t.Helper()
	saved, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(0)
	t.Cleanup(func() { unix.Dup2(saved, 0); unix.Close(saved) })
}
