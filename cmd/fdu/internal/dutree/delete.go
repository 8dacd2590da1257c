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

// ErrUnknown is a deletion refused because the scan does not know all the
// entry holds: a directory left out by --exclude, or not read in full.
var ErrUnknown = errors.New("holds what the scan did not read (excluded, or unreadable): not deleted")

// ErrNotEmpty is a directory that still held entries once every entry
// the scan found in it was deleted: entries made since the scan.
var ErrNotEmpty = errors.New("holds entries made since the scan: rescan first")

// wasDir marks an entry left out by --exclude that is a directory.
const wasDir Flags = 1 << 14

// refused says why the entry n, in a directory on device dev, must not be
// deleted, before anything is: nil if it may be.
func refused(n *Node, dev uint64) error {
	switch {
	case n.Flags&(OtherFS|KernFS) != 0:
		return ErrOtherFS
	case n.Flags&Excluded != 0 && n.Flags&wasDir != 0:
		return ErrUnknown
	case n.Dir == nil:
		return nil
	case n.Dir.Dev != dev:
		return ErrOtherFS
	case n.Flags&ReadError != 0:
		return ErrUnknown
	}
	for i := range n.Dir.Kids {
		if err := refused(&n.Dir.Kids[i], n.Dir.Dev); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes the entry name from the directory at dirNames (the names
// below the root), on disk and in the tree, then counts the tree again.
//
// It deletes what the scan found and nothing else, as ncdu does: each
// directory is opened relative to its parent without following a
// symbolic link and must be the one scanned (device and inode), so a
// directory swapped for a link, or a file system mounted since, is left
// alone; each file must still be the inode scanned; a directory is removed
// once empty, so entries made since the scan stay (ErrNotEmpty). Before
// anything is deleted, an entry holding another file system or what the
// scan did not read is refused. On an error part of the entry may be
// gone: the caller scans its directory again.
func (t *Tree) Delete(dirNames []string, name string) error {
	dir := t.Find(dirNames)
	if dir == nil || dir.Dir == nil {
		return ErrChanged
	}
	k := dir.Dir.Lookup(name)
	if k == nil {
		return fs.ErrNotExist
	}
	if err := refused(k, dir.Dir.Dev); err != nil {
		return err
	}
	err := t.remove(dirNames, k)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil // gone already: the tree follows the disk
	}
	if err == nil {
		dir.Dir.Remove(name)
		t.Recount()
	}
	return err
}
