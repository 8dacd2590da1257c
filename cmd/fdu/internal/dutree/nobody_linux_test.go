package dutree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// helperEnv, set to a directory, makes the test binary scan it, print
// each entry of its root as unreadEntry does and exit: a helper run as
// another user (testfs.RunAsNobody).
const helperEnv = "FDU_DUTREE_SCAN_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		tr, _, err := Scan(context.Background(), dir, ScanOptions{Walk: walkWorkers(1)})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		for _, k := range tr.Top.Entries() {
			fmt.Println(unreadEntry(k.Name, k.Flags&ReadError != 0, k.Dsize, k.Ino))
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func unreadEntry(name string, readError bool, dsize int64, ino uint64) string {
	return fmt.Sprintf("%s read error %v, %d bytes, inode %d", name, readError, dsize, ino)
}

// TestUnreadableDirectoryStatted: a directory the user may not open is
// marked, and counted with its own size and inode from its stat, as du
// counts it.
func TestUnreadableDirectoryStatted(t *testing.T) {
	world := testfs.WorldDir(t)
	dir := filepath.Join(world, "tree")
	mkfile(t, filepath.Join(dir, "locked", "f"), 1<<16)
	mkfile(t, filepath.Join(dir, "open", "f"), 1)
	for _, p := range []string{dir, filepath.Join(dir, "open")} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "locked"), 0o700); err != nil {
		t.Fatal(err)
	}
	res := testfs.RunAsNobodyResult(t, world, helperEnv+"="+dir)
	if res.Code != 0 {
		t.Fatalf("the scan as nobody failed, status %d: %s%s", res.Code, res.Stdout, res.Stderr)
	}
	out := res.Stdout
	fi, err := os.Lstat(filepath.Join(dir, "locked"))
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	want := unreadEntry("locked", true, st.Blocks*512, st.Ino)
	if st.Blocks == 0 || !strings.Contains(out, want+"\n") {
		t.Errorf("scanned as nobody:\n%s\nwant the line %q", out, want)
	}
}

// TestUnreadableRootScanned: a root the user may not open is the scan's
// error, the walk's own for it, not a tree of nothing.
func TestUnreadableRootScanned(t *testing.T) {
	world := testfs.WorldDir(t)
	locked := filepath.Join(world, "locked")
	mkfile(t, filepath.Join(locked, "f"), 10)
	if err := os.Chmod(locked, 0o700); err != nil {
		t.Fatal(err)
	}
	res := testfs.RunAsNobodyResult(t, world, helperEnv+"="+locked)
	want := "error: open " + locked + ": permission denied\n"
	if res.Code != 1 || res.Stdout != want {
		t.Errorf("the scan as nobody: status %d, %q%s; want 1, %q", res.Code, res.Stdout, res.Stderr, want)
	}
}
