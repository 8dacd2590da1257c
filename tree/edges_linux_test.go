package tree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// The edges of cloning where cp -a's semantics meet the file system: bind
// mounts, reflinks across file systems, trailing slashes, access times,
// vanishing directories, lone sources, cancellation, and nobody's limits.

// TestIntoItselfThroughBindMount: the destination's parent is a bind
// mount of a directory inside the source, so ".." from it never leads
// back to the source: the walk must refuse to enter the clone.
func TestIntoItselfThroughBindMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: a bind mount needs root")
	}
	base := t.TempDir()
	src, elsewhere := filepath.Join(base, "x"), filepath.Join(base, "elsewhere")
	must(t, os.MkdirAll(filepath.Join(src, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), []byte("a"), 0o644))
	must(t, os.Mkdir(elsewhere, 0o755))
	if err := unix.Mount(filepath.Join(src, "sub"), elsewhere, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("skipping: cannot bind-mount: %v", err)
	}
	defer unix.Unmount(elsewhere, unix.MNT_DETACH)
	var err error
	within(t, 20*time.Second, func() { _, err = Clone(src, filepath.Join(elsewhere, "c"), &Options{Method: Copy}) })
	if !errors.Is(err, ErrIntoItself) {
		t.Errorf("a clone into a bind mount of its own subdirectory: %v, want ErrIntoItself", err)
	}
	if names := dirNames(t, elsewhere); len(names) != 0 {
		t.Errorf("left behind: %q", names)
	}
}

// TestAutoReflinkKeepsHardLinks: under Auto on a file system with
// reflinks, the first file decides the method and must still be recorded
// among the hard links of its inode.
func TestAutoReflinkKeepsHardLinks(t *testing.T) {
	mnt := testfs.LoopMount(t, "xfs", "-m", "reflink=1")
	src := filepath.Join(mnt, "s")
	must(t, os.MkdirAll(filepath.Join(src, "a"), 0o755))
	must(t, os.MkdirAll(filepath.Join(src, "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "a", "x"), []byte("one\n"), 0o644))
	must(t, os.Link(filepath.Join(src, "a", "x"), filepath.Join(src, "b", "y")))
	must(t, os.Link(filepath.Join(src, "a", "x"), filepath.Join(src, "a", "z")))
	res, err := Clone(src, filepath.Join(mnt, "d"), &Options{Workers: 1})
	must(t, err)
	st := stat(t, filepath.Join(mnt, "d", "a", "x"))
	if res.Method != Reflink || st.Nlink != 3 || res.Bytes != 4 {
		t.Errorf("Auto: %v, %d bytes; the first file has %d links, want reflinks, 4 bytes, 3 links", res.Method, res.Bytes, st.Nlink)
	}
}

// TestAutoAcrossFileSystems: a tmpfs mounted inside the source cannot be
// hard-linked from ext4 (EXDEV): Auto copies its files.
func TestAutoAcrossFileSystems(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "m"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "a"), []byte("a"), 0o644))
	testfs.MountTmpfs(t, filepath.Join(src, "m"))
	must(t, os.WriteFile(filepath.Join(src, "m", "b"), []byte("b"), 0o644))
	res, err := Clone(src, filepath.Join(base, "dst"), nil)
	if err != nil || res.Method != Hardlink || res.Copied != 1 || res.Files != 2 {
		t.Errorf("Auto over a mount inside the source: %v, %v", res, err)
	}
}

// TestDestinationSlash: "new/" names new; an existing "dir/" is EEXIST.
func TestDestinationSlash(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), []byte("f"), 0o644))
	_, err := Clone(src, filepath.Join(base, "new")+"/", &Options{Method: Copy})
	must(t, err)
	if _, err := os.Stat(filepath.Join(base, "new", "f")); err != nil {
		t.Errorf("new/: %v", err)
	}
	if _, err := Clone(src, filepath.Join(base, "new")+"/", nil); !errors.Is(err, unix.EEXIST) {
		t.Errorf("an existing dir/: %v, want EEXIST", err)
	}
	if names := dirNames(t, filepath.Join(base, "new")); len(names) != 1 {
		t.Errorf("an existing dir/ was cloned into: %q", names)
	}
}

// TestOldAccessTimes: access times older than the modification times,
// which reading updates under relatime, are kept for directories and
// links as for files.
func TestOldAccessTimes(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "sub", "deeper"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "sub", "f"), []byte("f"), 0o644))
	must(t, os.Symlink("f", filepath.Join(src, "sub", "l")))
	atime, mtime := time.Date(2001, 1, 3, 0, 0, 0, 0, time.UTC), time.Date(2001, 1, 2, 0, 0, 0, 0, time.UTC)
	want := map[string]int64{}
	must(t, filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		must(t, err)
		ts := []unix.Timespec{unix.NsecToTimespec(atime.UnixNano()), unix.NsecToTimespec(mtime.UnixNano())}
		must(t, unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW))
		rel, _ := filepath.Rel(src, p)
		want[rel] = atime.UnixNano()
		return nil
	}))
	dst := filepath.Join(base, "dst")
	_, err := Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	for rel, at := range want {
		if got := stat(t, filepath.Join(dst, rel)).Atim.Nano(); got != at {
			t.Errorf("%s: access time %v, want %v", rel, time.Unix(0, got).UTC(), time.Unix(0, at).UTC())
		}
	}
}

// TestVanishedSubdirectory: a subdirectory removed from the source after
// its parent's visit made it and before the walk opened it is left out of
// the clone, not left behind unfinished.
func TestVanishedSubdirectory(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "a"), 0o755))
	must(t, os.MkdirAll(filepath.Join(src, "b"), 0o755))
	var once sync.Once
	testHookDir = func(d *walk.Dir) {
		if d.Depth == 1 {
			other := map[string]string{"a": "b", "b": "a"}[d.Info.Name]
			once.Do(func() { os.Remove(filepath.Join(src, other)) })
		}
	}
	defer func() { testHookDir = nil }()
	dst := filepath.Join(base, "dst")
	res, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	must(t, err)
	if names := dirNames(t, dst); len(names) != 1 || res.Dirs != 2 {
		t.Errorf("the clone holds %q, %d directories; want the one left", names, res.Dirs)
	}
}

// TestLoneSources: a lone file under Auto on the same file system is a
// hard link; a lone special file skipped is an error saying so; a file
// whose size says 0 (a /proc file) is copied to its end.
func TestLoneSources(t *testing.T) {
	base := t.TempDir()
	must(t, os.WriteFile(filepath.Join(base, "f"), []byte("f"), 0o644))
	res, err := Clone(filepath.Join(base, "f"), filepath.Join(base, "g"), nil)
	if err != nil || res.Method != Hardlink || stat(t, filepath.Join(base, "g")).Ino != stat(t, filepath.Join(base, "f")).Ino {
		t.Errorf("a lone file under Auto: %v, %v", res, err)
	}
	must(t, unix.Mkfifo(filepath.Join(base, "fifo"), 0o644))
	if _, err := Clone(filepath.Join(base, "fifo"), filepath.Join(base, "fifo2"), nil); err == nil || !strings.Contains(err.Error(), "special") {
		t.Errorf("a lone FIFO skipped: %v", err)
	}
	if _, err := Clone("/proc/self/status", filepath.Join(base, "status"), &Options{Method: Copy}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(base, "status")); !strings.Contains(string(b), "Name:") {
		t.Errorf("a /proc file copied as %q", b)
	}
}

// TestCancelLargeFile: cancelling stops a copy in the middle of a large
// file: no chunk is copied once the context is done.
func TestCancelLargeFile(t *testing.T) {
	base := t.TempDir()
	if os.Geteuid() == 0 {
		testfs.MountTmpfs(t, base) // in memory: nothing the disk must hold
	}
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	f, err := os.Create(filepath.Join(src, "big"))
	must(t, err)
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = byte(i)
	}
	for range 4 * copyChunk >> 20 {
		_, err := f.Write(chunk)
		must(t, err)
	}
	must(t, f.Close())
	ctx, cancel := context.WithCancel(context.Background())
	var chunks []int64
	testHookChunk = func(done int64) {
		chunks = append(chunks, done)
		cancel()
	}
	defer func() { testHookChunk = nil }()
	_, err = CloneContext(ctx, src, filepath.Join(base, "dst"), &Options{Method: Copy})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled clone: %v", err)
	}
	if len(chunks) != 1 || chunks[0] != copyChunk {
		t.Errorf("chunks copied, cancelled after the first: %v; want [%d]", chunks, int64(copyChunk))
	}
	if names := dirNames(t, base); len(names) != 1 {
		t.Errorf("left behind: %q", names)
	}
}

// TestAsNobodyEdges: as nobody, a source file in a directory that may be
// searched but not read, a destination in one that may be written and
// searched but not read, and an unreadable first file under Auto.
func TestAsNobodyEdges(t *testing.T) {
	world := testfs.WorldDir(t)
	xonly := filepath.Join(world, "xonly")
	must(t, os.Mkdir(xonly, 0o755))
	must(t, os.WriteFile(filepath.Join(xonly, "f"), []byte("f"), 0o644))
	must(t, os.Chmod(xonly, 0o711))
	drop := filepath.Join(world, "drop")
	must(t, os.Mkdir(drop, 0o755))
	must(t, os.Chmod(drop, 0o333))
	src := filepath.Join(world, "s")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), []byte("f"), 0o600))
	must(t, os.Chown(filepath.Join(src, "f"), 65534, 65534))
	must(t, os.Chmod(filepath.Join(src, "f"), 0))
	must(t, os.Chown(src, 65534, 65534))
	out := filepath.Join(world, "out")
	must(t, os.Mkdir(out, 0o755))
	must(t, os.Chmod(out, 0o777))
	for _, tc := range [][2]string{
		{filepath.Join(xonly, "f"), filepath.Join(out, "f")},
		{filepath.Join(world, "s"), filepath.Join(drop, "c")},
		{src, filepath.Join(out, "auto")},
	} {
		if o := cloneAsNobody(t, world, tc[0], tc[1], Auto, FailOnSpecials); o.Err != "" {
			t.Errorf("nobody: clone %s %s: %s", tc[0], tc[1], o.Err)
		}
	}
	if st := stat(t, filepath.Join(out, "auto", "f")); st.Ino != stat(t, filepath.Join(src, "f")).Ino {
		t.Errorf("the unreadable file was not linked")
	}
}
