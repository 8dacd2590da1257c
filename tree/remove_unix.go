//go:build linux || darwin

package tree

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// refuseInside fails when the directory parent, where the clone of the
// directory src (st) is to be made, is src or below it: by device and
// inode up the parent chain, as cp refuses to copy a directory into
// itself. A parent that cannot be searched ends the check.
func refuseInside(st *unix.Stat_t, parent int, src, dst string) error {
	fd, err := unix.Dup(parent)
	if err != nil {
		return dstErr("dup", filepath.Dir(dst), err)
	}
	for {
		var cur unix.Stat_t
		if err := unix.Fstat(fd, &cur); err != nil {
			unix.Close(fd)
			return nil
		}
		if cur.Dev == st.Dev && cur.Ino == st.Ino {
			unix.Close(fd)
			return dstErr("clone", dst, fmt.Errorf("%w: %s is inside %s", ErrIntoItself, dst, src))
		}
		up, err := unix.Openat(fd, "..", openPathFlags|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return nil
		}
		var ust unix.Stat_t
		if unix.Fstat(up, &ust) != nil || ust.Dev == cur.Dev && ust.Ino == cur.Ino {
			unix.Close(up)
			return nil // the root: its ".." is itself
		}
		fd = up
	}
}

// removeTree removes name in parent, a clone that failed or was cancelled:
// a file or link, or a directory tree, whose directories are first given
// back their owner's permissions (a finished 0555 directory of the clone
// could not be emptied otherwise). It works relative to open descriptors,
// never following a link, with a bounded number of them. path names it.
func removeTree(parent int, name, path string) error {
	err := unix.Unlinkat(parent, name, 0)
	if err == nil || err == unix.ENOENT {
		return nil
	}
	if err != unix.EISDIR && err != unix.EPERM {
		return err
	}
	fd, err := dirfd.OpenAt(parent, name, false, path)
	if err != nil {
		return err
	}
	set := dirfd.NewSet(dirfd.DefaultKept())
	defer set.CloseAll()
	top := &dirfd.Node{}
	set.Keep(top, fd, true)
	r := remover{set: set}
	r.l.Names = true
	if err := r.empty(top, path); err != nil {
		return err
	}
	set.Close(top)
	return unix.Unlinkat(parent, name, unix.AT_REMOVEDIR)
}

type remover struct {
	set *dirfd.Set
	l   frd.Lister
}

// empty removes everything inside the directory n.
func (r *remover) empty(n *dirfd.Node, path string) error {
	fd, own := n.Fd(), false
	if fd < 0 {
		var err error
		if fd, err = n.Open(path); err != nil {
			return err
		}
		own = true
	}
	dirs, err := r.unlinkFiles(fd, path)
	if own && (len(dirs) == 0 || !r.set.Keep(n, fd, false)) {
		unix.Close(fd)
	}
	if err != nil {
		return err
	}
	defer r.set.Close(n)
	for _, name := range dirs {
		child := &dirfd.Node{Parent: n, Name: name}
		cpath := filepath.Join(path, name)
		if err := r.empty(child, cpath); err != nil {
			return err
		}
		if err := r.rmdir(n, path, name); err != nil {
			return fmt.Errorf("%s: %w", cpath, err)
		}
	}
	return nil
}

// unlinkFiles makes the open directory fd its owner's to empty, removes
// every entry in it but the directories, and returns their names.
func (r *remover) unlinkFiles(fd int, path string) ([]string, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err == nil && st.Mode&0o700 != 0o700 {
		_ = unix.Fchmod(fd, uint32(st.Mode)&0o7777|0o700)
	}
	entries, err := r.l.AppendHandle(nil, uintptr(fd), path)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if e.Type.IsDir() {
			dirs = append(dirs, e.Name)
			continue
		}
		if err := unix.Unlinkat(fd, e.Name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("%s: %w", filepath.Join(path, e.Name), err)
		}
	}
	return dirs, nil
}

// rmdir removes the empty directory name of n.
func (r *remover) rmdir(n *dirfd.Node, path, name string) error {
	fd := n.Fd()
	if fd < 0 {
		var err error
		if fd, err = n.Open(path); err != nil {
			return err
		}
		defer unix.Close(fd)
	}
	return unix.Unlinkat(fd, name, unix.AT_REMOVEDIR)
}
