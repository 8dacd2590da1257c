//go:build linux || darwin

package tree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// ErrSymlink is wrapped by the error for a symbolic link given, or swapped
// in, where a directory is walked (frd chmod's DIR, a clone's source
// directory): the link is never followed.
var ErrSymlink = errors.New("a symbolic link, which is not followed")

// root is the start of a clone or a permission walk: its parent directory,
// opened by path (the caller's own path, followed as given), and its name
// there, never followed: what it is comes from a stat of that name, and a
// directory is opened with O_NOFOLLOW and described by fstat of the very
// descriptor walked, so a name swapped meanwhile for a link or another
// directory is refused or described as what it is.
type root struct {
	path   string
	role   string // the Error's: "source" in a clone
	parent int
	name   string
	st     unix.Stat_t
	dir    *os.File // the directory, open, when st is one
}

// openRoot opens path's parent and stats its last component, and opens it
// when it is a directory. role is the Error's.
func openRoot(path, role string) (*root, error) {
	path = filepath.Clean(path)
	dir, name := filepath.Split(path)
	if name == "" { // "/"
		dir, name = path, "."
	}
	if dir == "" {
		dir = "."
	}
	parent, err := openDir(dir)
	if err != nil {
		return nil, &Error{Op: "open", Path: dir, Role: role, Err: err}
	}
	r := &root{path: path, parent: parent, name: name, role: role}
	if err := unix.Fstatat(parent, name, &r.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		r.close()
		return nil, &Error{Op: "fstatat", Path: path, Role: role, Err: err}
	}
	if r.isDir() {
		if err := r.openDir(); err != nil {
			r.close()
			return nil, err
		}
	}
	return r, nil
}

// openDir opens the directory r names, never through a link, and takes
// its metadata from that descriptor.
func (r *root) openDir() error {
	fd, err := unix.Openat(r.parent, r.name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		// Swapped since the stat: O_NOFOLLOW with O_DIRECTORY fails a link
		// with ENOTDIR on Linux, ELOOP elsewhere. Say which it is now.
		var st unix.Stat_t
		if unix.Fstatat(r.parent, r.name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			err = fmt.Errorf("%w (swapped in for the directory)", ErrSymlink)
		}
	}
	if err != nil {
		return &Error{Op: "open", Path: r.path, Role: r.role, Err: err}
	}
	if err := unix.Fstat(fd, &r.st); err != nil {
		unix.Close(fd)
		return &Error{Op: "fstat", Path: r.path, Role: r.role, Err: err}
	}
	r.dir = os.NewFile(uintptr(fd), r.path)
	return nil
}

func (r *root) isDir() bool { return r.st.Mode&unix.S_IFMT == unix.S_IFDIR }

// walked closes what a walk from r no longer needs once it has opened its
// own descriptor of r's directory, which its first visit shows: under a
// low RLIMIT_NOFILE every descriptor counts.
func (r *root) walked(d *walk.Dir) {
	if d.Parent == nil {
		r.closeDir()
	}
}

func (r *root) closeDir() {
	if r.dir != nil {
		r.dir.Close()
		r.dir = nil
	}
}

func (r *root) closeParent() {
	if r.parent >= 0 {
		unix.Close(r.parent)
		r.parent = -1
	}
}

func (r *root) close() {
	r.closeDir()
	r.closeParent()
}

// openDirRoot is openRoot for a walk that only takes a directory: a
// symbolic link, or anything else, is refused.
func openDirRoot(path string) (*root, error) {
	r, err := openRoot(path, "")
	if err != nil {
		return nil, err
	}
	if !r.isDir() {
		r.close()
		err := error(unix.ENOTDIR)
		if r.st.Mode&unix.S_IFMT == unix.S_IFLNK {
			err = ErrSymlink
		}
		return nil, &Error{Op: "open", Path: path, Err: err}
	}
	return r, nil
}
