package dutree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// stream is Stream's output and walk for root, stopped by ctx.
func stream(t *testing.T, ctx context.Context, root string, o StreamOptions) ([]byte, *streamer, bool) {
	t.Helper()
	var b bytes.Buffer
	s := &streamer{ctx: ctx, o: o, e: newEncoder(&b, testMeta)}
	complete, err := s.run(root)
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), s, complete
}

// TestStreamWritesWhatScanFinds: the export written as the walk goes reads
// back as the tree a scan makes of the same directory.
func TestStreamWritesWhatScanFinds(t *testing.T) {
	root := makeTree(t)
	data, _, complete := stream(t, context.Background(), root, StreamOptions{})
	if !complete {
		t.Error("not complete")
	}
	got, _, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := strings.Join(flatten(got, true), "\n"), strings.Join(flatten(tr, true), "\n"); a != b {
		t.Errorf("streamed\n%s\nscanned\n%s", a, b)
	}
	if got.Incomplete {
		t.Error("read back Incomplete")
	}
}

// wideTree makes dirs directories of files files each, under one level
// of dirs directories: about dirs*dirs*files entries, none of its
// directories wider than max(dirs, files).
func wideTree(t *testing.T, dirs, files int) string {
	t.Helper()
	root := t.TempDir()
	for i := range dirs {
		for j := range dirs {
			d := filepath.Join(root, fmt.Sprintf("d%d", i), fmt.Sprintf("e%d", j))
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			for k := range files {
				if err := os.WriteFile(filepath.Join(d, fmt.Sprint(k)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return root
}

// TestStreamHoldsOnlyTheOpenListings: what the export holds at once is the
// listings of the directories open, root down: the same for a tree four
// times larger at the same depth and width.
func TestStreamHoldsOnlyTheOpenListings(t *testing.T) {
	for _, dirs := range []int{4, 8} {
		_, s, _ := stream(t, context.Background(), wideTree(t, dirs, 8), StreamOptions{})
		// The root's dirs, one d's dirs, one e's 8 files.
		if want := dirs + dirs + 8; s.peakHeld != want {
			t.Errorf("%d×%d×8 entries: %d held at once, want %d", dirs, dirs, s.peakHeld, want)
		}
		if s.held != 0 || s.depth != 0 {
			t.Errorf("left %d entries held, %d directories open", s.held, s.depth)
		}
	}
}

// TestStoppedStreamIsWholeAndSaysSo: an export stopped part-way is a valid
// file in which every directory not read is marked, for fdu (Unfinished,
// the tree Incomplete) and for ncdu and gdu (read_error).
func TestStoppedStreamIsWholeAndSaysSo(t *testing.T) {
	root := wideTree(t, 3, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	data, _, complete := stream(t, ctx, root, StreamOptions{Exclude: func(p string) bool {
		if strings.HasSuffix(p, "/d1/e1") {
			cancel() // stops the walk at its next entry
		}
		return false
	}})
	if complete {
		t.Error("complete")
	}
	tr, _, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !tr.Incomplete {
		t.Error("read back not Incomplete")
	}
	// Each directory is read whole, or unfinished and empty; some are.
	unfinished := 0
	for _, d := range []string{"d0", "d1", "d2"} {
		for _, e := range []string{"", "e0", "e1", "e2"} {
			p := strings.Trim(d+"/"+e, "/")
			n := tr.Find(strings.Split(p, "/"))
			if n == nil || n.Dir == nil {
				t.Fatalf("%s missing:\n%s", p, data)
			}
			onDisk, _ := os.ReadDir(filepath.Join(root, p))
			switch {
			case n.Flags&Unfinished != 0 && n.Dir.Len() == 0:
				unfinished++
			case n.Flags&Unfinished != 0 || n.Dir.Len() != len(onDisk):
				t.Errorf("%s: flags %b, %d entries of %d", p, n.Flags, n.Dir.Len(), len(onDisk))
			}
		}
	}
	if unfinished == 0 || !bytes.Contains(data, []byte(`"read_error":true,"unfinished":true}`)) {
		t.Errorf("nothing marked unfinished, for fdu and for ncdu:\n%s", data)
	}
	file := filepath.Join(t.TempDir(), "stopped.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("ncdu"); err == nil {
		if out := run(t, "ncdu", "--ignore-config", "-f", file, "-o", "-"); !bytes.Contains(out, []byte(`"read_error":true}`)) {
			t.Errorf("ncdu read it as\n%s", out)
		}
	}
	if _, err := exec.LookPath("gdu"); err == nil {
		run(t, "gdu", "-n", "-p", "--config-file", "/dev/null", "-f", file)
	}
}

// deepChain makes a chain levels deep of name under root, each level
// holding a file f.
func deepChain(t *testing.T, root, name string, levels int) {
	t.Helper()
	unix.Close(testfs.Chain(t, root, name, levels, nil, []string{"f"}))
}

// TestStreamDeepChain: another user can make a chain of directories as
// deep as they like in a tree root exports. A chain 1,200 levels deep is
// exported whole under RLIMIT_NOFILE 64 (a descriptor per level open ran
// out at level 56, and at the common limit of 1,024 at level 1,016), and
// 600 levels of 255-byte names cost no path, nor read buffer, per level
// held (144 MB allocated, then).
func TestStreamDeepChain(t *testing.T) {
	root := t.TempDir()
	deepChain(t, root, "d", 1200)
	testfs.LimitOpenFiles(t, 64)
	var errs []string
	data, s, complete := stream(t, context.Background(), root, StreamOptions{OnError: func(e Error) { errs = append(errs, e.Err.Error()) }})
	if !complete || len(errs) > 0 || s.depth != 0 {
		t.Fatalf("complete %v, %d errors, the first %q, %d levels left", complete, len(errs), append(errs, "")[0], s.depth)
	}
	tr, _, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if n := tr.Find(strings.Split(strings.Repeat("d/", 1199)+"f", "/")); n == nil {
		t.Error("the deepest file is not in the export")
	}

	long := t.TempDir()
	deepChain(t, long, strings.Repeat("n", 255), 600)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	_, _, complete = stream(t, context.Background(), long, StreamOptions{OnError: func(e Error) { t.Error(e.Err) }})
	runtime.ReadMemStats(&ms)
	if alloc := ms.TotalAlloc - before; !complete || alloc > 16<<20 {
		t.Errorf("600 levels of 255-byte names: complete %v, %d bytes allocated; want at most 16 MB", complete, alloc)
	}
}

// TestStreamDirectoryMovedWhileExported: below the descriptors a Stream
// keeps, a directory is found again, once its subdirectory is done,
// through ".." or by names from the root, checked to be the one listed.
// When only the subdirectory moved away, its parent is found by names and
// exported whole; when the parent moved too, or was replaced by another
// directory of its name, it is reported, and the rest of it is not read;
// the export is whole either way.
func TestStreamDirectoryMovedWhileExported(t *testing.T) {
	for _, c := range []struct{ both, replaced bool }{{false, false}, {true, false}, {true, true}} {
		both := c.both
		root := t.TempDir()
		deepChain(t, root, "d", 40)
		mkfile(t, filepath.Join(root, "d", "d", "z", "g"), 10)
		bottom := strings.Repeat("/d", 39)
		var errs []string
		moved := false
		data, _, complete := stream(t, context.Background(), root, StreamOptions{
			OnError: func(e Error) { errs = append(errs, e.Path+": "+e.Err.Error()) },
			Exclude: func(p string) bool {
				if !moved && strings.HasSuffix(p, bottom+"/f") {
					moved = true
					if err := os.Rename(filepath.Join(root, "d", "d", "d"), filepath.Join(root, "moved1")); err != nil {
						t.Fatal(err)
					}
					if both {
						if err := os.Rename(filepath.Join(root, "d", "d"), filepath.Join(root, "moved2")); err != nil {
							t.Fatal(err)
						}
					}
					if c.replaced { // found by names, another directory
						if err := os.Mkdir(filepath.Join(root, "d", "d"), 0o755); err != nil {
							t.Fatal(err)
						}
					}
				}
				return false
			},
		})
		if _, _, err := Read(bytes.NewReader(data)); err != nil || !complete || !moved {
			t.Fatalf("%+v: complete %v, moved %v, read back: %v", c, complete, moved, err)
		}
		want := 0
		if both {
			want = 1
		}
		if len(errs) != want || want == 1 && !strings.Contains(errs[0], "/d/d: moved or replaced") {
			t.Errorf("%+v: errors %q; want %d", c, errs, want)
		}
	}
}

// openUnder lists the directories under root this process has open, as
// their paths relative to root ("." for root).
func openUnder(t *testing.T, root string) []string {
	t.Helper()
	des, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var open []string
	for _, de := range des {
		target, err := os.Readlink("/proc/self/fd/" + de.Name())
		if err != nil {
			continue // ReadDir's own, closed since
		}
		if rel, err := filepath.Rel(root, target); err == nil && !strings.HasPrefix(rel, "..") {
			open = append(open, rel)
		}
	}
	slices.Sort(open)
	return open
}

// TestStreamKeepsTheDeepestOpen: 41 levels down, a Stream holds
// streamOpen directories open, the root and the deepest, and again at the
// bottom of a second chain after the first one's levels were found again
// on the way up; with descriptor 0 free, so that levels open and found
// again at 0 too, and none is left open after.
func TestStreamKeepsTheDeepestOpen(t *testing.T) {
	for _, zero := range []bool{false, true} {
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		const levels = 40
		for _, name := range []string{"a", "b"} {
			fd := testfs.Chain(t, root, name, levels, nil, []string{"f"})
			g, err := unix.Openat(fd, "g", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
			unix.Close(fd)
			if err != nil {
				t.Fatal(err)
			}
			unix.Close(g)
		}
		want := func(name string) []string {
			open := []string{"."}
			for i := levels - streamOpen + 2; i <= levels; i++ {
				open = append(open, strings.Repeat(name+"/", i-1)+name)
			}
			return open
		}
		seen := map[string][]string{}
		closed := false
		_, s, complete := stream(t, context.Background(), root, StreamOptions{
			OnError: func(e Error) { t.Error(e.Err) },
			Exclude: func(p string) bool {
				if zero && !closed {
					closed = true
					closeStdin(t) // the next directory opened is 0
				}
				for _, name := range []string{"a", "b"} {
					if p == root+"/"+strings.Repeat(name+"/", levels)+"g" {
						seen[name] = openUnder(t, root)
					}
				}
				return false
			},
		})
		if !complete || s.depth != 0 {
			t.Fatalf("zero %v: complete %v, %d levels left", zero, complete, s.depth)
		}
		for _, name := range []string{"a", "b"} {
			if !slices.Equal(seen[name], want(name)) {
				t.Errorf("zero %v: at the bottom of %s, open %q\nwant %q", zero, name, seen[name], want(name))
			}
		}
		if open := openUnder(t, root); len(open) > 0 {
			t.Errorf("zero %v: left open %q", zero, open)
		}
		if zero {
			if _, err := unix.FcntlInt(0, unix.F_GETFD, 0); err != unix.EBADF {
				t.Errorf("descriptor 0 left open after the stream (%v)", err)
			}
		}
	}
}

// TestStreamEntries: what a Stream writes of a symbolic link whose
// target takes a block of its own (its disk usage, from its lstat), of
// another file system's directory under -x (marked, not entered), and the
// paths it gives --exclude for a root named with a trailing slash.
func TestStreamEntries(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "d", "f"), 10)
	long := strings.Repeat("t", 200) // past ext4's 60 bytes kept in the inode
	if err := os.Symlink(long, filepath.Join(root, "d", "lnk")); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(root, "d", "lnk"), &st); err != nil {
		t.Fatal(err)
	}
	mounted := os.Geteuid() == 0
	if mounted {
		mkfile(t, filepath.Join(root, "m", "big"), 1<<16)
		testfs.MountTmpfs(t, filepath.Join(root, "m"))
	}
	var paths []string
	data, _, complete := stream(t, context.Background(), root+"/", StreamOptions{
		OneFileSystem: true,
		OnError:       func(e Error) { t.Error(e.Err) },
		Exclude:       func(p string) bool { paths = append(paths, p); return false },
	})
	tr, _, err := Read(bytes.NewReader(data))
	if err != nil || !complete {
		t.Fatalf("complete %v, read back: %v", complete, err)
	}
	if n := tr.Find([]string{"d", "lnk"}); n == nil || n.Dsize != st.Blocks*512 || n.Asize != int64(len(long)) {
		t.Errorf("lnk %+v, want %d bytes of disk, %d apparent", n, st.Blocks*512, len(long))
	}
	if d := tr.Find([]string{"d"}); d == nil || d.Dir == nil || d.Flags&OtherFS != 0 || d.Dir.Len() != 2 {
		t.Errorf("d, on the root's file system, read as %+v", d)
	}
	if mounted {
		if m := tr.Find([]string{"m"}); m == nil || m.Flags&OtherFS == 0 || m.Dir != nil {
			t.Errorf("m, a tmpfs, read as %+v, want OtherFS and not entered", m)
		}
	}
	for _, p := range paths {
		if strings.Contains(p, "//") || !strings.HasPrefix(p, root+"/") {
			t.Errorf("--exclude given %q", p)
		}
	}
	if !slices.Contains(paths, root+"/d/lnk") {
		t.Errorf("--exclude not given %q: %q", root+"/d/lnk", paths)
	}
}

// TestStoppedStreamKeepsExclusions: a Stream stopped in a directory
// writes its subdirectories not read unfinished, but those --exclude
// leaves out excluded, as it would have had it gone on.
func TestStoppedStreamKeepsExclusions(t *testing.T) {
	root := wideTree(t, 3, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := ""
	data, _, complete := stream(t, ctx, root, StreamOptions{Exclude: func(p string) bool {
		dir, name := filepath.Split(p)
		if dir != root+"/d1/" {
			return false
		}
		if first == "" {
			first = name
			cancel() // the other two are written by the unwinding
			return false
		}
		return name != "e1" && name != first
	}})
	tr, _, err := Read(bytes.NewReader(data))
	if err != nil || complete || first == "" {
		t.Fatalf("complete %v, stopped at %q, read back: %v", complete, first, err)
	}
	for _, e := range []string{"e0", "e1", "e2"} {
		n := tr.Find([]string{"d1", e})
		var want Flags
		switch {
		case e == first:
			want = 0
		case e == "e1":
			want = Unfinished
		default:
			want = Excluded
		}
		if n == nil || n.Flags&(Excluded|Unfinished) != want {
			t.Errorf("d1/%s (the first %s): %+v, want flags %#x", e, first, n, want)
		}
	}
}
