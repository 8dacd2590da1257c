package snapshot

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// nobodyTree is a tree where nobody may read all but two directories:
// secret (no permission at all) and noexec (names may be read, not
// stat'ed). The snapshot is written into a directory nobody may write.
func nobodyTree(t *testing.T) (world, dir string) {
	if os.Getenv("FRD_EMULATED") != "" {
		t.Skip("skipping: runs the test binary again, which an emulated run (FRD_EMULATED) cannot")
	}
	world = testfs.WorldDir(t)
	dir = filepath.Join(world, "tree")
	build(t, dir, "open/f", "secret/f", "secret/sub/g", "noexec/f", "z")
	for _, p := range []string{"open", "secret/sub"} {
		os.Chmod(filepath.Join(dir, p), 0o755)
	}
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Join(dir, "secret"), 0o700)
	os.Chmod(filepath.Join(dir, "noexec"), 0o744)
	os.Chmod(filepath.Join(world, "tree"), 0o755)
	settle()
	return world, dir
}

// TestNobodyCompare: a compare run by a user who cannot read some
// directories reports them as unreadable, never as unchanged, and goes
// on with the rest.
func TestNobodyCompare(t *testing.T) {
	world, dir := nobodyTree(t)
	snapFile := filepath.Join(world, "snap")
	if err := os.WriteFile(snapFile, take(t, dir, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	build(t, dir, "open/new")
	out := testfs.RunAsNobody(t, world, helperEnv+"=compare\x1f"+snapFile+"\x1f"+dir)
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	equalLines(t, "changes", got, []string{"! noexec/f", "A open/new", "! secret"})
}

// TestNobodyTake: a snapshot taken by a user who cannot read some
// directories says so (ErrIncomplete), and a compare of it reports them
// as not read.
func TestNobodyTake(t *testing.T) {
	world, dir := nobodyTree(t)
	snapFile := filepath.Join(world, "snaps", "snap")
	os.Mkdir(filepath.Dir(snapFile), 0o755)
	os.Chown(filepath.Dir(snapFile), 65534, 65534)
	out := testfs.RunAsNobody(t, world, helperEnv+"=take\x1f"+dir+"\x1f"+snapFile)
	if !bytes.Contains(out, []byte("some entries could not be read")) {
		t.Errorf("the snapshot as nobody said %q, want an incomplete snapshot", out)
	}
	snap, err := os.ReadFile(snapFile)
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "changes", changes(t, snap, dir, nil), []string{"? noexec/f", "? secret"})
}
