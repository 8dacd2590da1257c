package dutree

import (
	"errors"
	"io/fs"
)

// ErrChanged is a deletion refused because the entry on disk is no longer
// the one scanned: another file under its name, or its directory moved.
var ErrChanged = errors.New("not the file scanned (replaced or moved since): rescan first")

// ErrOtherFS is a deletion refused because it would reach into another
// file system (a mount point at or below the entry).
var ErrOtherFS = errors.New("another file system is mounted there: not deleted")

// holdsMount reports whether a directory below n is on another file system.
func holdsMount(n *Node) bool {
	for i := range n.Dir.Kids {
		k := &n.Dir.Kids[i]
		if k.Flags&(OtherFS|KernFS) != 0 || k.Dir != nil && (k.Dir.Dev != n.Dir.Dev || holdsMount(k)) {
			return true
		}
	}
	return false
}

// Delete removes the entry named name from the directory dir, found at
// dirPath, and from the tree, then counts the tree again. It works
// relative to the directory opened and checked to be the one scanned,
// never following a symbolic link (os.Root), and refuses an entry whose
// inode is not the one scanned. On an error part of a directory may be
// gone: the caller rescans dir.
func (t *Tree) Delete(dirPath string, dir *Node, name string) error {
	k := dir.Dir.Lookup(name)
	if k == nil {
		return &fs.PathError{Op: "delete", Path: name, Err: fs.ErrNotExist}
	}
	if k.Flags&(OtherFS|KernFS) != 0 || k.Dir != nil && holdsMount(k) {
		return &fs.PathError{Op: "delete", Path: name, Err: ErrOtherFS}
	}
	r, err := Open(dirPath, dir)
	if err != nil {
		return err
	}
	defer r.Close()
	st, err := r.Lstat(name)
	if err != nil {
		return err
	}
	if k.Ino != 0 && !sameIno(st, k.Ino) || k.Flags&Excluded == 0 && st.IsDir() != (k.Dir != nil) {
		return &fs.PathError{Op: "delete", Path: name, Err: ErrChanged}
	}
	if k.Flags&Excluded != 0 && st.IsDir() {
		return &fs.PathError{Op: "delete", Path: name, Err: errors.New("excluded from the scan, so what it holds is unknown: not deleted")}
	}
	if err := r.RemoveAll(name); err != nil {
		return err
	}
	dir.Dir.Remove(name)
	t.Recount()
	return nil
}
