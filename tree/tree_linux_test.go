package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// srcTree makes a tree with files of several modes, nested directories
// with their own modes, symbolic links inside and outside, and a FIFO.
func srcTree(t *testing.T, root string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "top.txt"), []byte("top"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "a", "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a", "b", "deep"), make([]byte, 100000), 0o600))
	must(t, os.Mkdir(filepath.Join(root, "locked"), 0o555))
	must(t, os.Symlink("../top.txt", filepath.Join(root, "a", "to-top")))
	must(t, os.Symlink("/etc/passwd", filepath.Join(root, "a", "outside")))
	must(t, os.Symlink("nowhere", filepath.Join(root, "dangling")))
	must(t, unix.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	old := time.Date(2020, 1, 2, 3, 4, 5, 600, time.UTC)
	must(t, os.Chtimes(filepath.Join(root, "top.txt"), old, old))
}

// checkClone compares dst with src: every directory, file and link, with
// modes; files linked (same inode) or not as the method says; times kept
// for copies and reflinks.
func checkClone(t *testing.T, src, dst string, method Method, specials bool) {
	t.Helper()
	must(t, filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		must(t, err)
		rel, _ := filepath.Rel(src, p)
		q := filepath.Join(dst, rel)
		gi, err := os.Lstat(q)
		if fi.Mode()&os.ModeNamedPipe != 0 {
			if specials != (err == nil) {
				t.Errorf("%s: FIFO made again: %v, want %v", rel, err == nil, specials)
			}
			return nil
		}
		if err != nil {
			t.Errorf("%s: missing in the clone: %v", rel, err)
			return nil
		}
		if gi.Mode() != fi.Mode() {
			t.Errorf("%s: mode %v, source %v", rel, gi.Mode(), fi.Mode())
		}
		s, d := fi.Sys().(*syscall.Stat_t), gi.Sys().(*syscall.Stat_t)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			a, _ := os.Readlink(p)
			b, _ := os.Readlink(q)
			if a != b {
				t.Errorf("%s: link to %q, source to %q", rel, b, a)
			}
		case fi.Mode().IsRegular():
			if (method == Hardlink) != (s.Ino == d.Ino) {
				t.Errorf("%s: same inode %v with %s", rel, s.Ino == d.Ino, method)
			}
			if method != Hardlink && !gi.ModTime().Equal(fi.ModTime()) {
				t.Errorf("%s: mtime %v, source %v", rel, gi.ModTime(), fi.ModTime())
			}
			if method == Hardlink {
				break // the same inode: the same contents
			}
			a, _ := os.ReadFile(p)
			b, _ := os.ReadFile(q)
			if string(a) != string(b) {
				t.Errorf("%s: contents differ", rel)
			}
		}
		return nil
	}))
}

func TestCloneMethods(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	srcTree(t, src)
	for _, m := range []Method{Hardlink, Copy, Auto} {
		t.Run(string(m), func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "dst")
			res, err := Clone(src, dst, &Options{Method: m, Workers: 2})
			must(t, err)
			want := m
			if m == Auto {
				want = Hardlink // ext4: no reflink, one device
				if fsHasReflink(t, filepath.Dir(dst)) {
					want = Reflink
				}
			}
			wantBytes := int64(3 + 10 + 100000)
			if res.Method == Hardlink {
				wantBytes = 0
			}
			if res.Method != want || res.Files != 3 || res.Dirs != 4 || res.Symlinks != 3 || res.Skipped != 1 || res.Bytes != wantBytes {
				t.Errorf("result %+v", res)
			}
			checkClone(t, src, dst, res.Method, false)
		})
	}
	t.Run("specials made again", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("skipping: mknod of a FIFO works unprivileged, but keep this with the root cases")
		}
		dst := filepath.Join(t.TempDir(), "dst")
		res, err := Clone(src, dst, &Options{Method: Copy, Specials: ReproduceSpecials})
		must(t, err)
		if res.Specials != 1 || res.Skipped != 0 {
			t.Errorf("result %+v", res)
		}
		checkClone(t, src, dst, Copy, true)
	})
	t.Run("specials refused", func(t *testing.T) {
		dst := filepath.Join(t.TempDir(), "dst")
		if _, err := Clone(src, dst, &Options{Method: Copy, Specials: FailOnSpecials}); err == nil || !strings.Contains(err.Error(), "fifo") {
			t.Errorf("err = %v, want one naming the FIFO", err)
		}
		if _, err := os.Lstat(dst); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("dst left behind: %v", err)
		}
	})
}

// fsHasReflink reports whether dir's file system clones files.
func fsHasReflink(t *testing.T, dir string) bool {
	a, b := filepath.Join(dir, ".probe-a"), filepath.Join(dir, ".probe-b")
	must(t, os.WriteFile(a, []byte("x"), 0o644))
	defer os.Remove(a)
	defer os.Remove(b)
	in, err := os.Open(a)
	must(t, err)
	defer in.Close()
	out, err := os.Create(b)
	must(t, err)
	defer out.Close()
	return unix.IoctlFileClone(int(out.Fd()), int(in.Fd())) == nil
}

// TestCloneSecurity: the seed's three cases, and a destination that
// exists.
func TestCloneSecurity(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	srcTree(t, src)

	// A symbolic link given as src is cloned as a link, not followed.
	link := filepath.Join(base, "link-to-src")
	must(t, os.Symlink("src", link))
	res, err := Clone(link, filepath.Join(base, "link-clone"), nil)
	must(t, err)
	if target, err := os.Readlink(filepath.Join(base, "link-clone")); err != nil || target != "src" || res.Symlinks != 1 || res.Files != 0 {
		t.Errorf("top-level link: %q %v %+v", target, err, res)
	}

	// A destination under a file fails cleanly.
	file := filepath.Join(base, "src", "top.txt")
	if _, err := Clone(src, filepath.Join(file, "dst"), nil); !errors.Is(err, unix.ENOTDIR) {
		t.Errorf("destination under a file: %v, want ENOTDIR", err)
	}

	// A destination that exists is refused and left alone.
	existing := filepath.Join(base, "existing")
	must(t, os.Mkdir(existing, 0o755))
	must(t, os.WriteFile(filepath.Join(existing, "keep"), []byte("mine"), 0o644))
	if _, err := Clone(src, existing, nil); !errors.Is(err, unix.EEXIST) {
		t.Errorf("existing destination: %v, want EEXIST", err)
	}
	if b, err := os.ReadFile(filepath.Join(existing, "keep")); err != nil || string(b) != "mine" {
		t.Errorf("existing destination changed: %q %v", b, err)
	}

	// Internal links stay links to the same targets (checkClone).
	dst := filepath.Join(base, "dst")
	_, err = Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	checkClone(t, src, dst, Copy, false)
}

// TestCloneCrossDevice hard-links across file systems: the clone fails
// with EXDEV and leaves nothing.
func TestCloneCrossDevice(t *testing.T) {
	base := t.TempDir()
	mnt := filepath.Join(base, "mnt")
	must(t, os.Mkdir(mnt, 0o755))
	testfs.MountTmpfs(t, mnt)
	src := filepath.Join(mnt, "src")
	srcTree(t, src)
	dst := filepath.Join(base, "dst")
	if _, err := Clone(src, dst, &Options{Method: Hardlink}); !errors.Is(err, unix.EXDEV) {
		t.Errorf("err = %v, want EXDEV", err)
	}
	if _, err := os.Lstat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dst left behind: %v", err)
	}
	// Auto falls back to a copy there.
	res, err := Clone(src, dst, nil)
	must(t, err)
	if res.Method != Copy {
		t.Errorf("Auto across devices chose %s", res.Method)
	}
	checkClone(t, src, dst, Copy, false)
}

// TestReflinkXFS clones on a loop-mounted XFS made with reflink=1.
func TestReflinkXFS(t *testing.T) { testReflink(t, testfs.LoopMount(t, "xfs", "-m", "reflink=1")) }

func TestReflinkBtrfs(t *testing.T) { testReflink(t, testfs.LoopMount(t, "btrfs")) }

// testReflink clones a tree by reflinks on mnt, forced and chosen by Auto,
// and checks that the copies share their extents with the source.
func testReflink(t *testing.T, mnt string) {
	src := filepath.Join(mnt, "src")
	srcTree(t, src)
	// A file written on its own shares nothing: the check can tell.
	deep, _ := os.ReadFile(filepath.Join(src, "a", "b", "deep"))
	must(t, os.WriteFile(filepath.Join(mnt, "written"), deep, 0o600))
	if sharesExtents(t, filepath.Join(src, "a", "b", "deep"), filepath.Join(mnt, "written")) {
		t.Fatal("a file written on its own shares an extent with another")
	}
	for _, m := range []Method{Reflink, Auto} {
		dst := filepath.Join(mnt, "dst-"+string(m))
		res, err := Clone(src, dst, &Options{Method: m})
		must(t, err)
		if res.Method != Reflink {
			t.Errorf("%s chose %s", m, res.Method)
		}
		checkClone(t, src, dst, Reflink, false)
		if !sharesExtents(t, filepath.Join(src, "a", "b", "deep"), filepath.Join(dst, "a", "b", "deep")) {
			t.Errorf("%s: the clone of a/b/deep shares no extent with its source", m)
		}
	}
}

// sharesExtents reports whether b's first extent is a's (FIEMAP): a
// reflink, not a copy.
func sharesExtents(t *testing.T, a, b string) bool {
	physical := func(p string) uint64 {
		f, err := os.Open(p)
		must(t, err)
		defer f.Close()
		must(t, f.Sync())
		// struct fiemap with room for one extent: 32-byte header, 56-byte extent.
		var buf [32 + 56]byte
		*(*uint64)(unsafe.Pointer(&buf[8])) = ^uint64(0) // fm_length
		*(*uint32)(unsafe.Pointer(&buf[16])) = 1         // fm_flags: FIEMAP_FLAG_SYNC
		*(*uint32)(unsafe.Pointer(&buf[24])) = 1         // fm_extent_count
		const fsIocFiemap = 0xc020660b
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), fsIocFiemap, uintptr(unsafe.Pointer(&buf[0]))); errno != 0 {
			t.Fatalf("FIEMAP %s: %v", p, errno)
		}
		if *(*uint32)(unsafe.Pointer(&buf[20])) == 0 { // fm_mapped_extents
			return 0
		}
		return *(*uint64)(unsafe.Pointer(&buf[32+8])) // fe_physical
	}
	pa, pb := physical(a), physical(b)
	return pa != 0 && pa == pb
}

func TestPermissions(t *testing.T) { testPermissions(t) }

// TestPermissionsWithoutFchmodat2 runs the permission walks as on a kernel
// older than Linux 6.6, through /proc/self/fd and then without /proc, and
// checks that the fallback refuses a symbolic link.
func TestPermissionsWithoutFchmodat2(t *testing.T) {
	testNoFchmodat2 = true
	defer func() { testNoFchmodat2 = false }()
	t.Run("proc", testPermissions)
	t.Run("no proc", func(t *testing.T) {
		procFD = "/nonexistent/proc/self/fd/"
		defer func() { procFD = "/proc/self/fd/" }()
		testPermissions(t)
	})
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	must(t, os.WriteFile(target, nil, 0o666))
	must(t, os.Chmod(target, 0o666))
	must(t, os.Symlink("target", filepath.Join(dir, "link")))
	d, err := openDir(dir)
	must(t, err)
	defer unix.Close(d)
	if err := chmodNoFollow(d, "link", 0o400); err != unix.EOPNOTSUPP {
		t.Errorf("chmod of a link: %v, want EOPNOTSUPP", err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o666 {
		t.Errorf("the link's target was changed: %v", fi.Mode().Perm())
	}
	must(t, chmodNoFollow(d, "target", 0o640))
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target: %v, want 0640", fi.Mode().Perm())
	}
}

func testPermissions(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "tree")
	srcTree(t, root)
	outside := filepath.Join(base, "outside")
	must(t, os.WriteFile(outside, []byte("x"), 0o666))
	must(t, os.Chmod(outside, 0o666))
	must(t, os.Symlink(outside, filepath.Join(root, "a", "to-outside")))

	n, err := FilesReadOnly(root, 2)
	must(t, err)
	if n != 3 {
		t.Errorf("%d files changed, want 3", n)
	}
	for p, want := range map[string]os.FileMode{"top.txt": 0o444, "a/run.sh": 0o555, "a/b/deep": 0o400} {
		if fi, err := os.Lstat(filepath.Join(root, p)); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	if fi, _ := os.Stat(outside); fi.Mode().Perm() != 0o666 {
		t.Errorf("a linked file outside the tree was changed: %v", fi.Mode().Perm())
	}

	// A file hard-linked into the tree keeps its mode when directories are
	// made writable; the read-only directory becomes writable.
	shared := filepath.Join(base, "shared")
	must(t, os.WriteFile(shared, []byte("s"), 0o444))
	must(t, os.Link(shared, filepath.Join(root, "locked-link")))
	n, err = DirsWritable(root, 2)
	must(t, err)
	if fi, _ := os.Lstat(filepath.Join(root, "locked")); fi.Mode().Perm()&0o200 == 0 || n != 1 {
		t.Errorf("locked: %v after DirsWritable (%d changed)", fi.Mode().Perm(), n)
	}
	if fi, _ := os.Stat(shared); fi.Mode().Perm() != 0o444 {
		t.Errorf("a shared file was changed: %v", fi.Mode().Perm())
	}
}

// TestSwapRace swaps a directory for a symbolic link to outside the tree
// after its parent was listed, before the walk opens it: neither the
// permission walk nor the clone may touch or read what the link points to.
func TestSwapRace(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "tree")
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "sub", "f"), []byte("in"), 0o644))
	victim := filepath.Join(base, "victim")
	must(t, os.Mkdir(victim, 0o755))
	must(t, os.WriteFile(filepath.Join(victim, "secret"), []byte("outside"), 0o666))
	must(t, os.Chmod(filepath.Join(victim, "secret"), 0o666))

	swap := func(d *walk.Dir) {
		if d.Depth == 0 {
			must(t, os.Rename(filepath.Join(root, "sub"), filepath.Join(base, "moved")))
			must(t, os.Symlink(victim, filepath.Join(root, "sub")))
		}
	}
	restore := func() {
		os.Remove(filepath.Join(root, "sub"))
		os.Rename(filepath.Join(base, "moved"), filepath.Join(root, "sub"))
	}
	testHookDir = swap
	defer func() { testHookDir = nil }()

	_, err := FilesReadOnly(root, 2)
	if !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.ENOTDIR) {
		t.Errorf("FilesReadOnly through a swapped link: %v, want ELOOP or ENOTDIR", err)
	}
	if fi, _ := os.Stat(filepath.Join(victim, "secret")); fi.Mode().Perm() != 0o666 {
		t.Errorf("the walk changed a file outside the tree: %v", fi.Mode().Perm())
	}
	restore()

	dst := filepath.Join(base, "dst")
	before := openFDs(t)
	_, err = Clone(root, dst, &Options{Method: Copy})
	if err == nil {
		t.Error("Clone went through a swapped link")
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after a failed clone, %d before", after, before)
	}
	if _, serr := os.Lstat(dst); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("dst left behind: %v", serr)
	}
	restore()
}

func openFDs(t *testing.T) int { return testfs.OpenFiles(t) }

// TestCloneFewDescriptors clones, with RLIMIT_NOFILE at 256, a directory
// of 2,000 subdirectories and a chain 300 deep with a sibling at every
// level: the clone must keep only a bounded number of destination
// directories open, as the walker does on the source side.
func TestCloneFewDescriptors(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	for i := range 2000 {
		d := filepath.Join(src, "wide", "d"+strconv.Itoa(i))
		must(t, os.MkdirAll(d, 0o755))
		must(t, os.WriteFile(filepath.Join(d, "f"), []byte(strconv.Itoa(i)), 0o644))
	}
	deep := filepath.Join(src, "deep")
	for i := range 300 {
		must(t, os.MkdirAll(filepath.Join(deep, "side"), 0o750))
		deep = filepath.Join(deep, "down")
		if i%50 == 0 {
			must(t, os.MkdirAll(deep, 0o755))
			must(t, os.WriteFile(filepath.Join(deep, "f"), nil, 0o600))
		}
	}
	must(t, os.MkdirAll(deep, 0o755))

	testfs.LimitOpenFiles(t, 256)

	before := openFDs(t)
	for _, opts := range []Options{{Method: Hardlink, Workers: 2}, {Method: Copy, Workers: 8}, {Method: Hardlink, Workers: 3, MaxOpenDirs: 1}} {
		dst := filepath.Join(base, fmt.Sprintf("dst-%s-%d-%d", opts.Method, opts.Workers, opts.MaxOpenDirs))
		res, err := Clone(src, dst, &opts)
		must(t, err)
		if res.Dirs != 1+1+2000+1+600 || res.Files != 2000+6 {
			t.Errorf("%+v: result %+v", opts, res)
		}
		checkClone(t, src, dst, opts.Method, false)
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after the clones, %d before", after, before)
	}
}

// TestCloneLargeTree clones the 100,000-entry source-checkout shape (with
// files of 0 or 1 byte, symbolic links and hard links added) by hard links
// and by copies, checks every entry, and seals the copy read-only.
func TestCloneLargeTree(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the 100,000-entry tree in -short mode")
	}
	base := t.TempDir()
	if os.Geteuid() == 0 {
		// In memory: the disk of a busy build machine makes 300,000
		// inodes take minutes, and the scale is what is tested.
		testfs.MountTmpfs(t, base)
	}
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	shape := treegen.SourceCheckout
	shape.MaxSize, shape.Symlinks, shape.HardLinks = 1, 1, 7
	n, err := treegen.Make(src, shape, 1)
	must(t, err)
	if n < 100000 {
		t.Fatalf("the tree has %d entries, want 100,000 or more", n)
	}
	var dirs, files, links int
	inodes := map[uint64]bool{} // the copy keeps hard links: one chmod for each
	must(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		must(t, err)
		switch {
		case d.IsDir():
			dirs++
		case d.Type().IsRegular():
			files++
			fi, err := d.Info()
			must(t, err)
			inodes[fi.Sys().(*syscall.Stat_t).Ino] = true
		case d.Type()&fs.ModeSymlink != 0:
			links++
		}
		return nil
	}))
	for _, m := range []Method{Hardlink, Copy} {
		dst := filepath.Join(base, "dst-"+string(m))
		res, err := Clone(src, dst, &Options{Method: m})
		must(t, err)
		if res.Method != m || res.Dirs != dirs || res.Files != files || res.Symlinks != links {
			t.Errorf("%s: result %+v, want %d dirs, %d files, %d links", m, res, dirs, files, links)
		}
		checkClone(t, src, dst, m, false)
	}
	dst := filepath.Join(base, "dst-copy")
	sealed, err := FilesReadOnly(dst, 0)
	must(t, err)
	if sealed != len(inodes) {
		t.Errorf("FilesReadOnly changed %d files, want %d", sealed, len(inodes))
	}
	must(t, filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		must(t, err)
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err != nil || fi.Mode().Perm()&0o222 != 0 {
				t.Fatalf("%s: %v %v after FilesReadOnly", p, fi.Mode(), err)
			}
		}
		return nil
	}))
}
