package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// TestRemoveTreeAtZero: with standard input closed, the directory a
// failed clone's removal opens first, the one it removes, is descriptor 0.
// It is the removal's kept top, listed and emptied through that descriptor
// and its subdirectories removed from it (it has no parent to be found
// again from), then closed.
func TestRemoveTreeAtZero(t *testing.T) {
	base := t.TempDir()
	made := filepath.Join(base, "made")
	must(t, os.MkdirAll(filepath.Join(made, "a", "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(made, "f"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(made, "a", "g"), nil, 0o644))
	parent, err := unix.Open(base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	defer unix.Close(parent)
	saveStdin(t)
	unix.Close(0)
	if err := removeTree(parent, "made", made); err != nil {
		t.Errorf("removing a tree whose top is descriptor 0: %v", err)
	}
	if _, err := os.Lstat(made); !os.IsNotExist(err) {
		t.Errorf("%s after its removal: %v", made, err)
	}
	if _, err := unix.FcntlInt(0, unix.F_GETFD, 0); err == nil {
		t.Error("the removal left descriptor 0 open")
	}
}

// TestRemoveTreeOpensEachDirectoryOnce: a failed clone's removal of a
// chain of directories, each holding a file and an empty directory, opens
// each directory once (counted under strace): one that holds directories
// is kept open for them and for their rmdir, not found again by name
// from the top for each.
func TestRemoveTreeOpensEachDirectoryOnce(t *testing.T) {
	// Given few descriptors, the removal reopens what it cannot keep.
	var lim syscall.Rlimit
	must(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	if lim.Cur < 256 {
		if lim.Max < 256 {
			t.Skipf("skipping: RLIMIT_NOFILE %d, too few for a removal that keeps each directory open", lim.Max)
		}
		testfs.LimitOpenFiles(t, 256)
	}
	made := filepath.Join(t.TempDir(), "made")
	var dirs []string
	p := made
	for i := range 5 {
		p = filepath.Join(p, fmt.Sprint("down", i))
		dirs = append(dirs, filepath.Base(p), fmt.Sprint("leaf", i))
		must(t, os.MkdirAll(filepath.Join(p, dirs[len(dirs)-1]), 0o755))
		must(t, os.WriteFile(filepath.Join(p, "f"), nil, 0o644))
	}
	trace, out := testfs.Strace(t, []string{deepChildEnv + "=remove\x1f" + made}, "-e", "trace=openat")
	if !strings.Contains(string(out), "done: <nil>") {
		t.Fatalf("the removal under strace did not end well: %s", out)
	}
	if _, err := os.Lstat(made); !os.IsNotExist(err) {
		t.Errorf("%s after its removal: %v", made, err)
	}
	for _, name := range dirs {
		if n := strings.Count(string(trace), `, "`+name+`", `); n != 1 {
			t.Errorf("%s opened %d times, want once", name, n)
		}
	}
}
