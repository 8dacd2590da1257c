//go:build linux || darwin

package tree

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// TempPrefix begins the name of the directory a clone is built in, beside
// its destination, before it is renamed into place: ".frd-clone-", 16 hex
// digits, "-" and the destination's name. Only the cloning user may enter
// it (mode 0700), so nothing in it can be renamed or swapped by another
// user while the clone is made. A clone killed with SIGKILL (or a crash)
// leaves one behind, and so does a clone whose final rename failed: the
// finished clone is then inside it, under the destination's name.
const TempPrefix = ".frd-clone-"

// tempName is a fresh name for a clone's work directory, within NAME_MAX.
func tempName(name string) (string, error) {
	if name == "." || name == ".." || name == "/" {
		return "", dstErr("clone", name, unix.EINVAL)
	}
	t := fmt.Sprintf("%s%016x-%s", TempPrefix, rand.Uint64(), name)
	if len(t) > 255 {
		t = t[:255]
	}
	return t, nil
}

// work is the private directory a clone is built in: made by the clone,
// open from the moment it is made, and known by its identity, so that
// nothing found under its name later is taken for it.
type work struct {
	parent int    // the destination's parent, where work was made
	name   string // its name in parent
	path   string // parent's path joined with name, for messages
	fd     int
	st     unix.Stat_t
}

// makeWork makes and opens a new work directory name in parent, private to
// its owner (mode 0700, no ACL, so nothing made in it inherits one). What
// it opened is checked to be what it made before anything of it is
// changed: a directory of its own user, with no permission for anyone
// else, empty, and, where the file system keeps birth times, born after
// the mkdir began. A directory renamed in under the name between the
// mkdir and the open fails one of these (one of another owner, or open to
// others, or not empty; an empty private one of the same owner, made
// earlier, fails the birth time) and is left as it was. It is checked
// empty again once its ACLs are gone: nothing made in it while an
// inherited ACL let another user in stays unnoticed.
func makeWork(parent int, parentPath, name string) (*work, error) {
	path := filepath.Join(parentPath, name)
	// The kernel stamps birth times from a clock that may lag the wall
	// clock by a tick: a margin of 20 ms covers it.
	since := time.Now().Add(-20 * time.Millisecond)
	if err := unix.Mkdirat(parent, name, 0o700); err != nil {
		return nil, dstErr("mkdirat", path, err)
	}
	if testHookWorkMade != nil {
		testHookWorkMade(path)
	}
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, dstErr("openat", path, err)
	}
	w := &work{parent: parent, name: name, path: path, fd: fd}
	if err := w.private(since); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return w, nil
}

// testHookWorkMade, when a test sets it, runs between the work
// directory's mkdir and its open.
var testHookWorkMade func(path string)

// private checks that w is the directory made, then makes it its owner's
// alone.
func (w *work) private(since time.Time) error {
	if err := w.check(since); err != nil {
		return dstErr("clone", w.path, err)
	}
	if err := dropACLs(w.fd); err != nil {
		return dstErr("fremovexattr", w.path, err)
	}
	if err := unix.Fchmod(w.fd, 0o700); err != nil {
		return dstErr("fchmod", w.path, err)
	}
	if err := w.empty(); err != nil {
		return dstErr("clone", w.path, err)
	}
	return nil
}

// newGID is the group what the clone makes in the work directory gets: on
// Linux the cloning user's (the work directory's 0700 keeps no set-group-ID
// bit for its entries to inherit the group by), on macOS and the BSDs the
// directory's, as their mkdir and open always give.
func (w *work) newGID() uint32 {
	if inheritsGroup {
		return w.st.Gid
	}
	return uint32(unix.Getegid())
}

// errNotOurs is a work directory that is not the one the clone made.
var errNotOurs = errors.New("not the clone's work directory (moved or replaced by another process): left alone")

// check tells the directory made from one renamed in, by what it can see
// without changing it.
func (w *work) check(since time.Time) error {
	if err := unix.Fstat(w.fd, &w.st); err != nil {
		return err
	}
	// mkdir's 0700 with any umask or inherited ACL gives no bit to
	// others, and no sticky bit.
	if w.st.Mode&unix.S_IFMT != unix.S_IFDIR || w.st.Uid != uint32(unix.Geteuid()) || w.st.Mode&(0o077|unix.S_ISVTX) != 0 {
		return errNotOurs
	}
	if born, ok := birthTime(w.fd); ok && born.Before(since) {
		return errNotOurs
	}
	return w.empty()
}

// empty fails unless the work directory holds nothing.
func (w *work) empty() error {
	var l frd.Lister
	l.Names, l.Rewind = true, true
	entries, err := l.AppendHandle(nil, uintptr(w.fd), w.path)
	if err != nil {
		return err
	}
	if len(entries) != 0 {
		return errNotOurs
	}
	return nil
}

// at reports whether the work directory is still at its name in parent.
func (w *work) at() bool {
	var st unix.Stat_t
	err := unix.Fstatat(w.parent, w.name, &st, unix.AT_SYMLINK_NOFOLLOW)
	return err == nil && st.Dev == w.st.Dev && st.Ino == w.st.Ino
}

// left says where the finished clone name, in the work directory, is
// left when it could not be renamed into place.
func (w *work) left(name string) string {
	if w.at() {
		return "the finished clone is left at " + filepath.Join(w.path, name)
	}
	return fmt.Sprintf("the finished clone is left as %s in the clone's work directory, which another process moved away from %s (inode %d)", name, w.path, w.st.Ino)
}

// remove removes the work directory, empty by now, if its name still
// holds it. (Between that check and the rmdir another user who can write
// to parent could put an empty directory of theirs in its place, and only
// an empty one: rmdir removes nothing else.)
func (w *work) remove() error {
	if !w.at() {
		return dstErr("rmdir", w.path, errNotOurs)
	}
	if err := unix.Unlinkat(w.parent, w.name, unix.AT_REMOVEDIR); err != nil {
		return dstErr("rmdir", w.path, err)
	}
	return nil
}

func (w *work) close() { unix.Close(w.fd) }
