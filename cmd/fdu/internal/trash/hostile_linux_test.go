package trash

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

const nobody = 65534

// nobodyTop mounts a tmpfs whose top directory belongs to nobody, as a
// disk another user owns would be, and returns it.
func nobodyTop(t *testing.T) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a tmpfs and act as nobody")
	}
	top := filepath.Join(testfs.WorldDir(t), "disk")
	if err := os.Mkdir(top, 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.MountTmpfs(t, top)
	if err := os.Chown(top, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	return top
}

// nobodyTrash makes dir a trash of nobody's, its files and info open to
// all, as another user would leave one for root to fall into.
func nobodyTrash(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{dir, filepath.Join(dir, "files"), filepath.Join(dir, "info")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
		os.Chown(d, nobody, nobody)
	}
}

// nobodysHolds lists what a trash of nobody's holds.
func nobodysHolds(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	for _, sub := range []string{"files", "info"} {
		des, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, de := range des {
			got = append(got, sub+"/"+de.Name())
		}
	}
	return got
}

// TestPutTopdirSwappedAsNobody: on a disk whose top is nobody's, nobody
// exchanges root's .Trash-0 with a trash of its own again and again while
// root trashes files from a directory only root may read: none of them,
// nor any .trashinfo, ever lands in nobody's trash.
func TestPutTopdirSwappedAsNobody(t *testing.T) {
	top := nobodyTop(t)
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // not on the tmpfs
	private := filepath.Join(top, "private")
	write(t, filepath.Join(private, "first"), "secret")
	os.Chmod(private, 0o700)
	if _, err := put(t, filepath.Join(private, "first")); err != nil {
		t.Fatal(err)
	}
	decoy := filepath.Join(top, "decoy")
	nobodyTrash(t, decoy)
	// Nobody's trash, held by descriptor: looked into through it at the
	// end, whatever name it has then.
	held, err := os.Open(decoy)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	testfs.SwapAsNobody(t, testfs.WorldDir(t), filepath.Join(top, ".Trash-0"), decoy)
	moved := 0
	for i := range 300 {
		f := filepath.Join(private, fmt.Sprintf("f%d", i))
		write(t, f, "secret")
		if _, err := put(t, f); err == nil {
			moved++
		}
	}
	if got := nobodysHolds(t, fmt.Sprintf("/proc/self/fd/%d", held.Fd())); len(got) > 0 {
		t.Fatalf("root's trashing wrote into nobody's trash (%d moved in all): %q", moved, got)
	}
	t.Logf("%d of 300 moved to root's trash, the rest refused", moved)
}

// TestPutNoHomeInWorkingDir: with $HOME unset and no $XDG_DATA_HOME, the
// home trash is not ./.local/share/Trash of the working directory, which
// may be another user's: a trash nobody made there stays empty.
func TestPutNoHomeInWorkingDir(t *testing.T) {
	top := nobodyTop(t)
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "")
	work := filepath.Join(top, "work")
	nobodyTrash(t, filepath.Join(work, ".local", "share", "Trash"))
	t.Chdir(work)
	write(t, filepath.Join(top, "x", "f"), "root's")
	at, err := put(t, filepath.Join(top, "x", "f"))
	if got := nobodysHolds(t, filepath.Join(work, ".local", "share", "Trash")); len(got) > 0 {
		t.Fatalf("trashed into nobody's trash in the working directory: %q (%s, %v)", got, at, err)
	}
	if err != nil || at != filepath.Join(top, ".Trash-0", "files", "f") {
		t.Errorf("trashed as %s, %v; want the $topdir trash", at, err)
	}
}

// TestPutHomeNotOurs: a home trash that is another user's, or open to all
// (made so, or a link to such a directory), is not used: the entry stays.
func TestPutHomeNotOurs(t *testing.T) {
	top := nobodyTop(t)
	theirs := filepath.Join(top, "theirs")
	nobodyTrash(t, filepath.Join(theirs, "Trash"))
	linked := filepath.Join(top, "linked")
	if err := os.Mkdir(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(theirs, "Trash"), filepath.Join(linked, "Trash")); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(top, "open")
	if err := os.MkdirAll(filepath.Join(open, "Trash"), 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(open, "Trash"), 0o777)
	for _, data := range []string{theirs, linked, open} {
		t.Setenv("XDG_DATA_HOME", data)
		f := filepath.Join(top, "x", "f")
		write(t, f, "root's")
		at, err := put(t, f)
		if err == nil || !exists(f) {
			t.Errorf("XDG_DATA_HOME=%s: trashed as %s, %v; want refused, the file left", data, at, err)
		}
	}
	if got := nobodysHolds(t, filepath.Join(theirs, "Trash")); len(got) > 0 {
		t.Errorf("trashed into nobody's trash: %q", got)
	}
}

// TestPutChecksWhatWent: an entry replaced between the last check and
// the rename is found so in the trash, put back under its name, and its
// .trashinfo removed.
func TestPutChecksWhatWent(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f"), "checked")
	var checked unix.Stat_t
	if err := unix.Lstat(filepath.Join(dir, "f"), &checked); err != nil {
		t.Fatal(err)
	}
	// Replaced after the check, before the rename.
	os.Rename(filepath.Join(dir, "f"), filepath.Join(dir, "kept"))
	write(t, filepath.Join(dir, "f"), "another")
	errReplaced := errors.New("replaced")
	same := func(fd int, name string) error {
		var st unix.Stat_t
		if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return err
		}
		if st.Ino != checked.Ino {
			return errReplaced
		}
		return nil
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if at, err := Put(fd, "f", filepath.Join(dir, "f"), same); !errors.Is(err, errReplaced) {
		t.Errorf("Put of a replaced entry: %s, %v", at, err)
	}
	if read(t, filepath.Join(dir, "f")) != "another" {
		t.Errorf("the entry was not put back")
	}
	if des, _ := os.ReadDir(filepath.Join(data, "Trash", "files")); len(des) > 0 {
		t.Errorf("left in the trash: %v", des)
	}
	if des, _ := os.ReadDir(filepath.Join(data, "Trash", "info")); len(des) > 0 {
		t.Errorf("a .trashinfo left: %v", des)
	}
	if at, err := Put(fd, "kept", filepath.Join(dir, "kept"), same); err != nil || read(t, at) != "checked" {
		t.Errorf("Put of the checked entry: %s, %v", at, err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil || !errors.Is(err, syscall.ENOENT)
}

// TestPutAdminTrashOfAnotherUser: a sticky $topdir/.Trash that another
// user made is not an administrator's: root's trash goes to .Trash-0.
func TestPutAdminTrashOfAnotherUser(t *testing.T) {
	top := nobodyTop(t)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	admin := filepath.Join(top, ".Trash")
	if err := os.Mkdir(admin, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(admin, 0o1777)
	os.Chown(admin, nobody, nobody)
	write(t, filepath.Join(top, "f"), "root's")
	if at, err := put(t, filepath.Join(top, "f")); err != nil || at != filepath.Join(top, ".Trash-0", "files", "f") {
		t.Errorf("trashed as %s, %v; want .Trash-0", at, err)
	}
}
