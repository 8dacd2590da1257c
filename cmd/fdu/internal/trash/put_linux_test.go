package trash

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// put is Put of path, through its directory's descriptor.
func put(t *testing.T, path string) (string, error) {
	t.Helper()
	fd, err := unix.Open(filepath.Dir(path), unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	return Put(fd, filepath.Base(path), path, nil)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPutHome: a file and a directory go to the home trash, beside a
// .trashinfo each with the encoded path; a second entry of the same name
// gets another; the names of odd bytes come back exactly.
func TestPutHome(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a file%"), "one")
	write(t, filepath.Join(dir, "d", "sub", "f"), "two")
	at, err := put(t, filepath.Join(dir, "a file%"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(data, "Trash", "files", "a file%"); at != want || read(t, at) != "one" {
		t.Errorf("trashed as %s, want %s", at, want)
	}
	info := read(t, filepath.Join(data, "Trash", "info", "a file%.trashinfo"))
	if !strings.HasPrefix(info, "[Trash Info]\nPath="+encodePath(dir)+"/a%20file%25\nDeletionDate=") {
		t.Errorf("trashinfo:\n%s", info)
	}
	if _, err := put(t, filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(data, "Trash", "files", "d", "sub", "f")) != "two" {
		t.Errorf("d was not moved whole")
	}
	write(t, filepath.Join(dir, "a file%"), "three")
	if at, err = put(t, filepath.Join(dir, "a file%")); err != nil || filepath.Base(at) != "a file%_2" {
		t.Errorf("the second a file%%: %s, %v", at, err)
	}
	if st, err := os.Stat(filepath.Join(data, "Trash")); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the trash's mode: %v %v", st.Mode(), err)
	}
	if got := encodePath("/x/\xff\n"); got != "/x/%FF%0A" {
		t.Errorf("encodePath: %s", got)
	}
}

// TestPutTopdir: on another file system than the home trash's, the entry
// goes to $topdir/.Trash-$uid, made 0700, with a path relative to the
// top; one that exists with another mode is refused, nothing moved; an
// administrator's sticky .Trash is used first.
func TestPutTopdir(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	top := t.TempDir()
	testfs.MountTmpfs(t, top)
	write(t, filepath.Join(top, "x", "f"), "one")
	at, err := put(t, filepath.Join(top, "x", "f"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(top, ".Trash-0", "files", "f"); at != want {
		t.Errorf("trashed as %s, want %s", at, want)
	}
	if info := read(t, filepath.Join(top, ".Trash-0", "info", "f.trashinfo")); !strings.Contains(info, "\nPath=x/f\n") {
		t.Errorf("trashinfo:\n%s", info)
	}
	os.Chmod(filepath.Join(top, ".Trash-0"), 0o755)
	write(t, filepath.Join(top, "g"), "two")
	if _, err := put(t, filepath.Join(top, "g")); err == nil || !strings.Contains(err.Error(), "not 700") {
		t.Errorf("a .Trash-0 of mode 755: %v", err)
	}
	if read(t, filepath.Join(top, "g")) != "two" {
		t.Errorf("g was moved")
	}
	if err := unix.Mkdir(filepath.Join(top, ".Trash"), 0o1777); err != nil {
		t.Fatal(err)
	}
	unix.Chmod(filepath.Join(top, ".Trash"), 0o1777)
	if at, err = put(t, filepath.Join(top, "g")); err != nil || at != filepath.Join(top, ".Trash", "0", "files", "g") {
		t.Errorf("with a sticky .Trash: %s, %v", at, err)
	}
}

// TestTrashCLI: trash-cli's trash-list sees what Put trashed under its
// original path, and trash-restore puts it back whole.
func TestTrashCLI(t *testing.T) {
	if _, err := exec.LookPath("trash-restore"); err != nil {
		t.Skip("trash-cli is not installed (apt-get install trash-cli); .ci/run installs it")
	}
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "odd name", "f"), "one")
	write(t, filepath.Join(dir, "odd name", "sub", "g"), "two")
	if _, err := put(t, filepath.Join(dir, "odd name")); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("trash-list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), " "+filepath.Join(dir, "odd name")+"\n") {
		t.Fatalf("trash-list: %v\n%s", err, out)
	}
	restore := exec.Command("trash-restore", dir)
	restore.Dir = dir
	restore.Stdin = bytes.NewBufferString("0\n")
	if out, err := restore.CombinedOutput(); err != nil {
		t.Fatalf("trash-restore: %v\n%s", err, out)
	}
	if read(t, filepath.Join(dir, "odd name", "f")) != "one" || read(t, filepath.Join(dir, "odd name", "sub", "g")) != "two" {
		t.Errorf("not restored whole")
	}
	if out, _ := exec.Command("trash-list").CombinedOutput(); strings.Contains(string(out), dir) {
		t.Errorf("still in the trash:\n%s", out)
	}
}
