//go:build unix

package dutree

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// remove deletes k, an entry of the directory at dirNames.
func (t *Tree) remove(dirNames []string, k *Node) error {
	fd, err := t.openDir(dirNames)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return removeAt(fd, k, append(slices.Clone(dirNames), k.Name))
}

// openDir opens the directory at names from the root down, one level at a
// time without following a link, each checked to be the one scanned; it
// holds one descriptor at the end, whatever the depth or the path's length.
func (t *Tree) openDir(names []string) (int, error) {
	n := &t.Root
	fd, err := retry(func() (int, error) {
		return unix.Open(n.Name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: n.Name, Err: err}
	}
	if err := sameDir(fd, n); err != nil {
		unix.Close(fd)
		return -1, err
	}
	for i, name := range names {
		k := n.Dir.Lookup(name)
		if k == nil || k.Dir == nil {
			unix.Close(fd)
			return -1, ErrChanged
		}
		child, err := openChild(fd, k)
		unix.Close(fd)
		if err != nil {
			return -1, &pathError{names[:i+1], err}
		}
		fd, n = child, k
	}
	return fd, nil
}

// openChild opens k, a subdirectory of the directory fd, and checks it is
// the directory scanned and no mount point.
func openChild(fd int, k *Node) (int, error) {
	child, err := retry(func() (int, error) {
		return unix.Openat(fd, k.Name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	switch {
	case errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP):
		return -1, ErrChanged // now a file, or a symbolic link
	case err != nil:
		return -1, err
	}
	if err := sameDir(child, k); err != nil {
		unix.Close(child)
		return -1, err
	}
	if mountRoot(child) {
		unix.Close(child)
		return -1, ErrOtherFS
	}
	return child, nil
}

// sameDir checks that fd is the directory n was scanned as.
func sameDir(fd int, n *Node) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if dirfd.DevNum(st.Dev) != n.Dir.Dev {
		return ErrOtherFS // a file system mounted there since
	}
	if uint64(st.Ino) != n.Ino {
		return ErrChanged
	}
	return nil
}

// removeAt deletes k from the directory fd: what the scan found in it,
// then k itself. It goes on past an error, as rm -r does, and returns the
// first.
func removeAt(fd int, k *Node, path []string) error {
	if k.Dir == nil {
		return removeFile(fd, k, path)
	}
	child, err := openChild(fd, k)
	if err != nil {
		return &pathError{path, err}
	}
	var first error
	for i := range k.Dir.Kids {
		kid := &k.Dir.Kids[i]
		if err := removeAt(child, kid, append(path, kid.Name)); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
	}
	unix.Close(child)
	if first != nil {
		return first
	}
	err = unix.Unlinkat(fd, k.Name, unix.AT_REMOVEDIR)
	switch {
	case errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST):
		return &pathError{path, ErrNotEmpty}
	case err != nil:
		return &pathError{path, err}
	}
	return nil
}

func removeFile(fd int, k *Node, path []string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(fd, k.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &pathError{path, err}
	}
	switch {
	case st.Mode&unix.S_IFMT == unix.S_IFDIR && k.Flags&Excluded != 0:
		return &pathError{path, ErrUnknown}
	case st.Mode&unix.S_IFMT == unix.S_IFDIR, k.Ino != 0 && uint64(st.Ino) != k.Ino:
		return &pathError{path, ErrChanged}
	}
	if err := unix.Unlinkat(fd, k.Name, 0); err != nil {
		return &pathError{path, err}
	}
	return nil
}

func retry(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// pathError names where below the root a deletion failed.
type pathError struct {
	path []string
	err  error
}

func (e *pathError) Error() string { return strings.Join(e.path, "/") + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }
