package dutree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
