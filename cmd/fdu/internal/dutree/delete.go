package dutree

import (
	"errors"
	"io/fs"
	"strings"
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

// ErrGone is an entry not found where the scan saw it, in a directory
// that is the one scanned: deleted or moved since. It leaves the tree.
var ErrGone = errors.New("not there any more (deleted or moved since the scan); taken out of the view")

// ErrAbove is a directory on the way to the entry that is not the one
// scanned (moved, removed or replaced since): scan again from the top.
var ErrAbove = errors.New("a directory above it changed since the scan: rescan from the top (T, then r)")

// wasDir marks an entry left out by --exclude that is a directory.
const wasDir Flags = 1 << 14

// refused says why the entry n, in a directory on device dev, must not be
// deleted, before anything is, naming the entry below it at fault: nil if
// it may be.
func refused(n *Node, dev uint64, path []string) error {
	var err error
	switch {
	case n.Flags&(OtherFS|KernFS) != 0:
		err = ErrOtherFS
	case n.Flags&Excluded != 0 && (n.Flags&wasDir != 0 || n.Ino == 0):
		err = ErrUnknown
	case n.Dir == nil:
		return nil
	case n.Dir.Dev != dev:
		err = ErrOtherFS
	case n.Flags&ReadError != 0:
		err = ErrUnknown
	}
	if err != nil {
		return &pathError{path, err}
	}
	for i := range n.Dir.Kids {
		k := &n.Dir.Kids[i]
		if err := refused(k, n.Dir.Dev, append(path, k.Name)); err != nil {
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
	if err := refused(k, dir.Dir.Dev, []string{name}); err != nil {
		return err
	}
	links := hardLinks(k, dir.Dir.Dev, nil)
	err := t.remove(dirNames, k)
	if err == nil || errors.Is(err, ErrGone) {
		dir.Dir.Remove(name) // the tree follows the disk
		t.unlinked(links)
		t.Recount()
	}
	return err
}

// hardLinks adds to ids the device and inode of each file with several
// links at or below n.
func hardLinks(n *Node, dev uint64, ids map[[2]uint64]uint32) map[[2]uint64]uint32 {
	if n.Dir == nil {
		if n.Flags&HardLink != 0 {
			if ids == nil {
				ids = map[[2]uint64]uint32{}
			}
			ids[[2]uint64{dev, n.Ino}]++
		}
		return ids
	}
	for i := range n.Dir.Kids {
		ids = hardLinks(&n.Dir.Kids[i], n.Dir.Dev, ids)
	}
	return ids
}

// unlinked lowers the link counts of the files whose links were deleted,
// as the disk's did; one link left is no hard link.
func (t *Tree) unlinked(ids map[[2]uint64]uint32) {
	if len(ids) == 0 {
		return
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		for i := range n.Dir.Kids {
			k := &n.Dir.Kids[i]
			if k.Dir != nil {
				walk(k)
			} else if gone := ids[[2]uint64{n.Dir.Dev, k.Ino}]; gone > 0 && k.Flags&HardLink != 0 {
				k.Nlink -= min(gone, k.Nlink-1)
				if k.Nlink <= 1 {
					k.Flags &^= HardLink
				}
			}
		}
	}
	walk(&t.Root)
}

// pathError names where below the root a deletion failed.
type pathError struct {
	path []string
	err  error
}

// Error puts the reason first: a long path is what a narrow screen cuts.
func (e *pathError) Error() string { return e.err.Error() + " (at " + strings.Join(e.path, "/") + ")" }
func (e *pathError) Unwrap() error { return e.err }
