package dutree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

var testMeta = WriteOptions{Meta: Meta{Progname: "fdu", Progver: "test", Timestamp: 1}, Mtime: true}

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
// exported whole; when the parent moved too, it is reported, and the rest
// of it is not read; the export is whole either way.
func TestStreamDirectoryMovedWhileExported(t *testing.T) {
	for _, both := range []bool{false, true} {
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
				}
				return false
			},
		})
		if _, _, err := Read(bytes.NewReader(data)); err != nil || !complete || !moved {
			t.Fatalf("both %v: complete %v, moved %v, read back: %v", both, complete, moved, err)
		}
		want := 0
		if both {
			want = 1
		}
		if len(errs) != want || want == 1 && !strings.Contains(errs[0], "/d/d: moved or replaced") {
			t.Errorf("both %v: errors %q; want %d", both, errs, want)
		}
	}
}
