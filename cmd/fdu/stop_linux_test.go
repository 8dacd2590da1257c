// go-fuse, behind synthfs, builds on 64-bit systems only.

//go:build amd64 || arm64

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/internal/synthfs"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// slowShape is 3 directories of 2 directories of 3 files, and 2 files at
// the top: 17 entries, each directory a second to open.
var slowShape = treegen.Shape{Levels: 3, Fanout: []int{3, 2, 0}, Files: []int{2, 0, 3}, MaxSize: 100}

// TestBrowserStoppedScanBrowsesWhatItRead: q once the scan has listed the
// top of a slow tree opens the browser on what it read: the header says
// the scan is incomplete, the directories not read are marked ?, and
// deleting one is refused (the test binary is fdu; the tree is slow on
// purpose, each directory a second to open).
func TestBrowserStoppedScanBrowsesWhatItRead(t *testing.T) {
	mnt := synthfs.MountTemp(t, slowShape, time.Second)
	tm := startTerminal(t, 100, 30, nil, "-i", mnt)
	tm.waitFor("Items:     5") // the top's 2 files and 3 directories
	tm.keys("q")
	s := tm.waitFor("incomplete")
	if !strings.Contains(s, "Total disk usage") {
		t.Fatalf("no browser:\n%s", s)
	}
	tm.keys("n") // by name: the directories first, d000 selected
	s = tm.waitFor("/d000")
	// The directories the scan was stopped before listing are marked:
	// one at least, opened last. Deleting it is refused.
	row := -1
	for i, l := range entries(s) {
		if strings.HasPrefix(l, "?") && row < 0 {
			row = i
		}
	}
	if row < 0 {
		t.Fatalf("no directory marked ?:\n%s", s)
	}
	for range row {
		tm.keys("Down")
	}
	tm.keys("d", "y")
	s = tm.waitFor("Cannot delete d00")
	if !strings.Contains(s, "did not read") {
		t.Errorf("the refusal does not say why:\n%s", s)
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// TestExportStoppedBySignal: SIGINT during fdu -o FILE finishes a whole
// export, marked incomplete, under FILE, and leaves no other file; fdu
// exits 130.
func TestExportStoppedBySignal(t *testing.T) {
	skipEmulated(t)
	mnt := synthfs.MountTemp(t, slowShape, 400*time.Millisecond)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join([]string{"-o", "export.json", mnt}, "\x1f"), helperEnv+"_DIR="+out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The temporary file is made once the signals are caught; then the
	// top and a directory or two are read, of 10.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if tmp, _ := filepath.Glob(filepath.Join(out, ".export.json.*")); len(tmp) > 0 {
			break
		}
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d (%v), want 130; stderr %q", code, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "incomplete") {
		t.Errorf("stderr %q says nothing of an incomplete export", stderr.String())
	}
	names, _ := filepath.Glob(filepath.Join(out, "*"))
	hidden, _ := filepath.Glob(filepath.Join(out, ".*"))
	if len(names) != 1 || len(hidden) != 0 {
		t.Errorf("left %q and %q, want export.json alone", names, hidden)
	}
	data, err := os.ReadFile(filepath.Join(out, "export.json"))
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := dutree.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a whole export: %v\n%s", err, data)
	}
	if !tr.Incomplete || tr.Top.Items >= 17 {
		t.Errorf("Incomplete %v with %d items of 17:\n%s", tr.Incomplete, tr.Top.Items, data)
	}
}
