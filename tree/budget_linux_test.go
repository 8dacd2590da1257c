package tree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// TestDefaultWorkersRunAtOnce: zero workers means GOMAXPROCS of them, for
// a clone and for a permission walk alike: two sibling directories are
// visited at once, each waiting for the other.
func TestDefaultWorkersRunAtOnce(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("skipping: GOMAXPROCS is 1, so the default is one worker")
	}
	src := filepath.Join(t.TempDir(), "src")
	for _, name := range []string{"a", "b"} {
		must(t, os.MkdirAll(filepath.Join(src, name), 0o755))
		must(t, os.WriteFile(filepath.Join(src, name, "f"), nil, 0o644))
	}
	var arrived atomic.Int32
	var lone atomic.Bool
	var both chan struct{}
	testHookDir = func(d *walk.Dir) {
		if d.Path == src {
			return
		}
		if arrived.Add(1) == 2 {
			close(both)
		}
		select {
		case <-both:
		case <-time.After(time.Second):
			lone.Store(true)
		}
	}
	defer func() { testHookDir = nil }()
	run := func(what string, fn func() error) {
		arrived.Store(0)
		lone.Store(false)
		both = make(chan struct{})
		must(t, fn())
		if lone.Load() {
			t.Errorf("%s with 0 workers visited the two directories one at a time", what)
		}
	}
	run("Clone", func() error {
		_, err := Clone(src, filepath.Join(filepath.Dir(src), "dst"), &Options{Method: Hardlink})
		return err
	})
	run("FilesReadOnly", func() error { _, err := FilesReadOnly(src, 0); return err })
}

// keptDescriptors clones a chain of depth directories, each with a
// sibling still to come, into dst, with one worker and MaxOpenDirs side, and
// returns the most descriptors open at a visit, less those open before.
func keptDescriptors(t *testing.T, src, dst string, side int) int {
	t.Helper()
	var mu sync.Mutex
	most := 0
	before := openFDs(t)
	testHookDir = func(d *walk.Dir) {
		n := openFDs(t) - before
		mu.Lock()
		most = max(most, n)
		mu.Unlock()
	}
	defer func() { testHookDir = nil }()
	_, err := Clone(src, dst, &Options{Method: Hardlink, Workers: 1, MaxOpenDirs: side})
	must(t, err)
	return most
}

// TestMaxOpenDirsPerSide: MaxOpenDirs bounds each side, so each one more
// keeps two more descriptors at the bottom of a chain 40 deep; zero or
// less means DefaultKept a side (16, a quarter of a limit of 64).
func TestMaxOpenDirsPerSide(t *testing.T) {
	src := sidedChain(t, 40)
	out := t.TempDir() // made, and so removed, under the usual limit
	testfs.LimitOpenFiles(t, 64)
	base := keptDescriptors(t, src, filepath.Join(out, "1"), 1) - 2 // what a worker holds
	for _, side := range []int{-1, 0, 2, 3} {
		want := base + 2*side
		if side <= 0 {
			want = base + 2*16
		}
		if got := keptDescriptors(t, src, filepath.Join(out, strconv.Itoa(side)), side); got != want {
			t.Errorf("MaxOpenDirs %d: %d descriptors open at most, want %d", side, got, want)
		}
	}
}

// TestUnfinishedDirectoryFailsClone: a subdirectory made in the clone,
// then removed from the source before the walk opens it, is removed again
// at its parent's end; when that fails (something was put in it), the
// clone fails, undone, rather than keep it.
func TestUnfinishedDirectoryFailsClone(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "a"), 0o755))
	must(t, os.MkdirAll(filepath.Join(src, "b"), 0o755))
	var once sync.Once
	testHookDir = func(d *walk.Dir) {
		if d.Depth != 1 {
			return
		}
		other := map[string]string{"a": "b", "b": "a"}[d.Info.Name]
		once.Do(func() {
			must(t, os.Remove(filepath.Join(src, other)))
			made, _ := filepath.Glob(filepath.Join(base, TempPrefix+"*", "dst", other))
			for _, m := range made {
				must(t, os.WriteFile(filepath.Join(m, "f"), nil, 0o644))
			}
			if len(made) != 1 {
				t.Errorf("the clone's %s: found %q", other, made)
			}
		})
	}
	defer func() { testHookDir = nil }()
	dst := filepath.Join(base, "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	if !errors.Is(err, unix.ENOTEMPTY) {
		t.Errorf("err = %v, want ENOTEMPTY", err)
	} else if strings.Contains(err.Error(), "; and ") {
		t.Errorf("err = %v: undone, it says otherwise", err)
	}
	if names := dirNames(t, base); len(names) != 1 {
		t.Errorf("left beside the source: %q", names)
	}
}

// TestCloneErrorOverCancel: a clone that fails in a directory's visit
// after its context was cancelled, and its walk halted for it, says why
// it failed, not only that it was cancelled.
func TestCloneErrorOverCancel(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.MkdirAll(src, 0o755))
	must(t, unix.Mkfifo(filepath.Join(src, "fifo"), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	testHookDir = func(d *walk.Dir) {
		cancel()
		time.Sleep(20 * time.Millisecond) // for the walk to see it first, on a goroutine of its own
	}
	defer func() { testHookDir = nil }()
	_, err := CloneContext(ctx, src, filepath.Join(filepath.Dir(src), "dst"), &Options{Method: Copy, Specials: FailOnSpecials})
	if err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the FIFO's", err)
	}
}

// TestReflinkAcrossFileSystems: a tmpfs mounted inside a source on XFS
// cannot be reflinked from (EXDEV): Auto, having chosen reflinks, copies
// its file; Reflink asked for fails.
func TestReflinkAcrossFileSystems(t *testing.T) {
	mnt := testfs.LoopMount(t, "xfs", "-m", "reflink=1")
	src := filepath.Join(mnt, "src")
	must(t, os.MkdirAll(filepath.Join(src, "m"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "a"), []byte("a"), 0o644))
	testfs.MountTmpfs(t, filepath.Join(src, "m"))
	must(t, os.WriteFile(filepath.Join(src, "m", "b"), []byte("b"), 0o644))
	dst := filepath.Join(mnt, "auto")
	res, err := Clone(src, dst, &Options{Workers: 1})
	if err != nil || res.Method != Reflink || res.Copied != 1 || res.Files != 2 {
		t.Errorf("Auto over a mount inside the source: %+v, %v", res, err)
	} else if b, _ := os.ReadFile(filepath.Join(dst, "m", "b")); string(b) != "b" {
		t.Errorf("m/b copied as %q", b)
	}
	if _, err := Clone(src, filepath.Join(mnt, "reflink"), &Options{Method: Reflink}); !errors.Is(err, unix.EXDEV) {
		t.Errorf("Reflink over a mount inside the source: %v, want EXDEV", err)
	}
}

// TestFileMovedDuringCloneCopiedTwice: a file of one link, copied, then
// moved into a directory the walk has yet to list, is copied again there:
// only a file of several links is linked to its first copy.
func TestFileMovedDuringCloneCopiedTwice(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	for _, d := range []string{"a/s", "a/t", "b"} {
		must(t, os.MkdirAll(filepath.Join(src, d), 0o755))
	}
	must(t, os.WriteFile(filepath.Join(src, "a", "f"), []byte("f"), 0o644))
	// With one worker, the visit after a's comes once a/f was copied; the
	// file moves into a directory still to be visited, and listed.
	toCome := map[string]bool{"a/s": true, "a/t": true, "b": true}
	aDone, moved := false, ""
	testHookDir = func(d *walk.Dir) {
		rel, _ := filepath.Rel(src, d.Path)
		delete(toCome, rel)
		if aDone && moved == "" {
			for dir := range toCome {
				moved = filepath.Join(dir, "f")
				must(t, os.Rename(filepath.Join(src, "a", "f"), filepath.Join(src, moved)))
				break
			}
		}
		aDone = aDone || rel == "a"
	}
	defer func() { testHookDir = nil }()
	dst := filepath.Join(base, "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	must(t, err)
	if moved == "" {
		t.Fatal("no directory was left to move a/f into")
	}
	first, second := stat(t, filepath.Join(dst, "a", "f")), stat(t, filepath.Join(dst, moved))
	if first.Ino == second.Ino || first.Nlink != 1 {
		t.Errorf("a/f and %s, copies of one file moved between them, are one file of %d links", moved, first.Nlink)
	}
}

// TestFewFreeDescriptorsKept: with descriptors added one at a time to a
// limit that keeps no directory open, a clone keeps, at the bottom of a
// chain, one more for each: first a destination directory, then a source
// one, and so on; none is kept on a side the plan gave none.
func TestFewFreeDescriptorsKept(t *testing.T) {
	src := sidedChain(t, 20)
	out := t.TempDir()
	var counts []int
	for free := range uint64(20) {
		if free < 7 {
			// At 6 the clone, at its least, and the hook's own count
			// fill the limit: a descriptor the process opens meanwhile
			// fails it.
			continue
		}
		t.Run(strconv.Itoa(int(free)), func(t *testing.T) {
			testfs.LimitFreeFiles(t, free)
			counts = append(counts, keptDescriptors(t, src, filepath.Join(out, strconv.Itoa(int(free))), 8))
		})
	}
	rose := false
	for i := 1; i < len(counts); i++ {
		switch counts[i] - counts[i-1] {
		case 0:
			if rose {
				t.Fatalf("descriptors at the bottom of the chain, free ones from 7 up: %v: one more free kept nothing more", counts)
			}
		case 1:
			rose = true
		default:
			t.Fatalf("descriptors at the bottom of the chain, free ones from 7 up: %v", counts)
		}
	}
	if !rose {
		t.Fatalf("descriptors at the bottom of the chain, free ones from 7 up: %v: never more", counts)
	}
}

// TestKeptDirectoryAtZero: descriptor 0, freed during a clone (saved with
// dup, restored with dup2), may be a destination directory the clone
// keeps: it is closed at that directory's end as any other.
func TestKeptDirectoryAtZero(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.MkdirAll(filepath.Join(src, "a", "b"), 0o755))
	saveStdin(t)
	var once sync.Once
	testHookDir = func(d *walk.Dir) {
		if d.Depth == 1 { // a, listed: its destination is opened next, and kept for b
			once.Do(func() { unix.Close(0) })
		}
	}
	defer func() { testHookDir = nil }()
	_, err := Clone(src, filepath.Join(filepath.Dir(src), "dst"), &Options{Method: Copy, Workers: 1})
	must(t, err)
	if _, err := unix.FcntlInt(0, unix.F_GETFD, 0); err == nil {
		t.Error("the clone left descriptor 0 open")
	}
}

// sidedChain makes a chain of n directories "down", each with an empty
// subdirectory "side" (a sibling at every level), and returns its top.
func sidedChain(t *testing.T, n int) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	deep := src
	for range n {
		must(t, os.MkdirAll(filepath.Join(deep, "side"), 0o755))
		deep = filepath.Join(deep, "down")
	}
	must(t, os.MkdirAll(deep, 0o755))
	return src
}

// saveStdin keeps a copy of descriptor 0, which the test may close, and
// puts it back at the test's end.
func saveStdin(t *testing.T) {
	t.Helper()
	saved, err := unix.FcntlInt(0, unix.F_DUPFD_CLOEXEC, 3)
	must(t, err)
	t.Cleanup(func() {
		unix.Dup3(saved, 0, 0)
		unix.Close(saved)
	})
}

// descriptorsOf counts the process's descriptors open on path; -1 if
// /proc/self/fd cannot be read.
func descriptorsOf(path string) int {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // what /proc/self/fd shows, TMPDIR a link or not
	}
	des, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	n := 0
	for _, de := range des {
		if p, err := os.Readlink(filepath.Join("/proc/self/fd", de.Name())); err == nil && p == path {
			n++
		}
	}
	return n
}

// TestRootOpenOnceAtItsVisit: the descriptor a clone or a permission walk
// opened its directory with, before the walk opened its own, is closed by
// the root's own visit, not later: the root is open once there, in a
// tree with and without subdirectories.
func TestRootOpenOnceAtItsVisit(t *testing.T) {
	defer func() { testHookDir = nil }()
	for _, sub := range []bool{false, true} {
		src := filepath.Join(t.TempDir(), "src")
		must(t, os.Mkdir(src, 0o755))
		must(t, os.WriteFile(filepath.Join(src, "f"), nil, 0o644))
		if sub {
			must(t, os.Mkdir(filepath.Join(src, "sub"), 0o755))
		}
		open := -1
		testHookDir = func(d *walk.Dir) {
			if d.Path == src {
				open = descriptorsOf(src)
			}
		}
		run := func(what string, fn func() error) {
			open = -1
			must(t, fn())
			if open != 1 {
				t.Errorf("%s of a tree with subdirectories %v: its root open %d times at its visit, want once", what, sub, open)
			}
		}
		run("Clone", func() error {
			_, err := Clone(src, filepath.Join(filepath.Dir(src), "dst"), &Options{Method: Copy, Workers: 1})
			return err
		})
		run("FilesReadOnly", func() error { _, err := FilesReadOnly(src, 1); return err })
	}
}
