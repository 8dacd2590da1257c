package dutree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// kids maps each entry of the tree's root to its flags, and whether it
// has a listing (a Dir).
func kids(t *testing.T, tr *Tree) map[string]Flags {
	t.Helper()
	out := map[string]Flags{}
	for _, k := range tr.Top.Entries() {
		f := k.Flags &^ wasDir
		if k.Dir != nil {
			f |= entDir // "listed", for the comparison
		}
		out[k.Name] = f
	}
	return out
}

func TestExcludeCaches(t *testing.T) {
	root := t.TempDir()
	tag := cacheDirSignature + "\n# This file is a cache directory tag.\n"
	files := map[string]string{
		"cache/CACHEDIR.TAG":    tag,
		"cache/big":             string(make([]byte, 100000)),
		"exact/CACHEDIR.TAG":    cacheDirSignature, // the signature alone is enough
		"wrong/CACHEDIR.TAG":    "Signature: 8a477f597d28d172789f06886806bc5X\n",
		"short/CACHEDIR.TAG":    cacheDirSignature[:42],
		"lower/cachedir.tag":    tag,
		"linked/real":           tag,
		"plain/file":            "x",
		"nested/a/CACHEDIR.TAG": tag,
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A tag that is a link to a good tag tags nothing: it is not read.
	if err := os.Symlink("real", filepath.Join(root, "linked/CACHEDIR.TAG")); err != nil {
		t.Fatal(err)
	}
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), ExcludeCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	got := kids(t, tr)
	for name, want := range map[string]Flags{
		"cache": Excluded, "exact": Excluded, "wrong": entDir, "short": entDir, "lower": entDir,
		"linked": entDir, "plain": entDir, "nested": entDir,
	} {
		if got[name] != want {
			t.Errorf("%s: flags %#x, want %#x", name, got[name], want)
		}
	}
	nested := tr.Top.Entries()
	for _, k := range nested {
		if k.Name == "nested" {
			if a := k.Dir.Entries(); len(a) != 1 || a[0].Flags&Excluded == 0 {
				t.Errorf("nested/a not excluded: %+v", a)
			}
		}
	}
	if tr.Top.Dsize >= 100000 {
		t.Errorf("the excluded cache's file is counted: %d bytes", tr.Top.Dsize)
	}
	// Without the option, every directory is scanned.
	tr, _, err = Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range kids(t, tr) {
		if f != entDir {
			t.Errorf("without --exclude-caches, %s: flags %#x", name, f)
		}
	}
}

// TestExcludeKernFS mounts a proc and a tmpfs in the tree: the proc is
// left out, marked, the tmpfs scanned.
func TestExcludeKernFS(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a proc needs root")
	}
	root := t.TempDir()
	for _, d := range []string{"proc", "tmp", "plain"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	proc := filepath.Join(root, "proc")
	if out, err := exec.Command("mount", "-t", "proc", "proc", proc).CombinedOutput(); err != nil {
		t.Skipf("skipping: mount -t proc: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", proc).Run() })
	testfs.MountTmpfs(t, filepath.Join(root, "tmp"))
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), ExcludeKernFS: true})
	if err != nil {
		t.Fatal(err)
	}
	got := kids(t, tr)
	for name, want := range map[string]Flags{"proc": KernFS, "tmp": entDir, "plain": entDir} {
		if got[name] != want {
			t.Errorf("%s: flags %#x, want %#x", name, got[name], want)
		}
	}
	// A device's answer is asked once (a statfs a mount, not a
	// directory): given the proc's device, plain is taken for it.
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var c kernfsCache
	if !c.is(fd, "proc", 77) || !c.is(fd, "plain", 77) || c.is(fd, "plain", 0) || c.is(fd, "tmp", 78) {
		t.Errorf("kernfsCache: proc, plain as its device, plain and tmp: %v %v %v %v",
			c.is(fd, "proc", 77), c.is(fd, "plain", 77), c.is(fd, "plain", 0), c.is(fd, "tmp", 78))
	}
}

// TestOneFileSystem mounts a tmpfs at the top of the tree and one three
// levels down: under -x each is an entry marked OtherFS with nothing
// below, its files not counted, and no directory keeps the scan's own
// listed mark.
func TestOneFileSystem(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a tmpfs needs root")
	}
	root := t.TempDir()
	for _, d := range []string{"top", "deep/a/mnt", "plain/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"top", "deep/a/mnt"} {
		mnt := filepath.Join(root, d)
		testfs.MountTmpfs(t, mnt)
		if err := os.WriteFile(filepath.Join(mnt, "big"), make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, one := range []bool{false, true} {
		walkOpts := func() *walk.Options { return &walk.Options{Workers: 2, StatAll: true, Reuse: true, OneFileSystem: one} }
		tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkOpts})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]Flags{"top": entDir, "deep": entDir, "plain": entDir}
		if one {
			want["top"] = OtherFS
		}
		got := kids(t, tr)
		for name, f := range want {
			if got[name] != f {
				t.Errorf("-x %v: %s: flags %#x, want %#x", one, name, got[name], f)
			}
		}
		mnt := find(tr, "deep", "a", "mnt")
		if mnt == nil || (mnt.Flags&OtherFS != 0) != one || (mnt.Dir == nil) != one {
			t.Errorf("-x %v: deep/a/mnt is %+v", one, mnt)
		}
		if big := tr.Top.Dsize >= 1<<20; big == one {
			t.Errorf("-x %v: %d bytes counted", one, tr.Top.Dsize)
		}
		forDirs(tr.Top, func(d *Dir) {
			if d.own.flags&listed != 0 {
				t.Errorf("-x %v: a directory keeps the scan's listed mark", one)
			}
		})
	}
}

// find is the node at names below the tree's root, or nil.
func find(tr *Tree, names ...string) *Node {
	root := tr.Top.node("")
	return findIn(&root, names)
}

// forDirs calls f for d and each directory below it.
func forDirs(d *Dir, f func(*Dir)) {
	f(d)
	for _, sub := range d.subs {
		forDirs(sub, f)
	}
}

// TestOneFileSystemStopped: a scan under -x stopped as its root's listing
// ends marks the directories it did not reach Unfinished, not OtherFS.
// The mount is OtherFS only where the listing gave its device (Linux's
// leaves a directory's to the walk's stat of it, never made here).
func TestOneFileSystemStopped(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a tmpfs needs root")
	}
	root := t.TempDir()
	for _, d := range []string{"top", "plain/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testfs.MountTmpfs(t, filepath.Join(root, "top"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	walkOpts := func() *walk.Options {
		return &walk.Options{Workers: 1, StatAll: true, Reuse: true, OneFileSystem: true}
	}
	tr, _, err := Scan(ctx, root, ScanOptions{Walk: walkOpts, Exclude: func(string) bool {
		cancel() // the walk checks its context before the next directory
		return false
	}})
	if err != nil || tr == nil || !tr.Incomplete {
		t.Fatalf("a scan stopped after its root's listing: %v, tree %v", err, tr)
	}
	got := kids(t, tr)
	if got["plain"] != entDir|Unfinished {
		t.Errorf("plain: flags %#x, want %#x", got["plain"], entDir|Unfinished)
	}
	if top := got["top"]; top != OtherFS && top != entDir|Unfinished {
		t.Errorf("top: flags %#x, want OtherFS or Unfinished", top)
	}
}

// TestOneFileSystemRescanUnfinished: a mount left Unfinished by a stopped
// scan under -x (its device unknown) is not scanned into the tree by a
// rescan: its files are another file system's, refused before one is
// read. A directory of the tree's own file system left Unfinished is.
func TestOneFileSystemRescanUnfinished(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a tmpfs needs root")
	}
	root := t.TempDir()
	mnt := filepath.Join(root, "top")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(root, "plain", "f"), 4096)
	testfs.MountTmpfs(t, mnt)
	if err := os.WriteFile(filepath.Join(mnt, "big"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	walkOpts := func() *walk.Options {
		return &walk.Options{Workers: 1, StatAll: true, Reuse: true, OneFileSystem: true}
	}
	tr, _, err := Scan(ctx, root, ScanOptions{Walk: walkOpts, Exclude: func(string) bool {
		cancel()
		return false
	}})
	if err != nil || tr == nil {
		t.Fatalf("a scan stopped after its root's listing: %v, tree %v", err, tr)
	}
	top := find(tr, "top")
	if top == nil || top.Dir == nil || top.Flags&Unfinished == 0 {
		t.Skipf("top is %+v: not left Unfinished", top)
	}
	var read Progress
	if _, err := Rescan(context.Background(), mnt, top, ScanOptions{Walk: walkOpts, Progress: &read}); err == nil {
		t.Error("a rescan of another file system's directory under -x succeeded")
	}
	if n, b := read.Entries.Load(), read.Bytes.Load(); n != 0 || b != 0 {
		t.Errorf("refused after reading %d entries, %d bytes", n, b)
	}
	plain := find(tr, "plain")
	if plain == nil || plain.Dir == nil || plain.Flags&Unfinished == 0 {
		t.Fatalf("plain is %+v: not left Unfinished", plain)
	}
	if _, err := Rescan(context.Background(), filepath.Join(root, "plain"), plain, ScanOptions{Walk: walkOpts}); err != nil {
		t.Errorf("a rescan of the tree's own file system's directory under -x: %v", err)
	}
	tr.Recount()
	if tr.Top.Dsize >= 1<<20 || plain.Dir.Len() != 1 {
		t.Errorf("%d bytes counted (the other file system's file among them?), plain holds %d entries", tr.Top.Dsize, plain.Dir.Len())
	}
}

// TestOneFileSystemVanished: under -x a directory removed between its
// parent's listing and its own is not another file system's: only a
// directory the walk found on another device is marked OtherFS.
func TestOneFileSystemVanished(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"gone", "kept/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	walkOpts := func() *walk.Options {
		return &walk.Options{Workers: 1, StatAll: true, Reuse: true, OneFileSystem: true}
	}
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkOpts, Exclude: func(path string) bool {
		if filepath.Base(path) == "gone" {
			os.Remove(path) // listed in its parent, not there to open
		}
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := kids(t, tr)
	if got["gone"]&OtherFS != 0 {
		t.Errorf("gone, removed during the scan: flags %#x, marked OtherFS", got["gone"])
	}
	if got["kept"] != entDir {
		t.Errorf("kept: flags %#x, want %#x", got["kept"], entDir)
	}
}
