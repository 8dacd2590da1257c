package dutree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/pbednarcik/flexreaddir/frd"
)

// ErrChanged is a deletion refused because the entry on disk is no longer
// the one scanned: another file under its name (a new inode, a new type,
// or the scanned inode number given to a file made since), or its
// directory moved.
var ErrChanged = errors.New("not the file scanned (replaced or moved since): rescan first")

// ErrOtherFS is a deletion refused because it would reach into another
// file system (a mount point at or below the entry, a bind mount of the
// same file system included).
var ErrOtherFS = errors.New("another file system is mounted there: not deleted")

// ErrUnknown is a deletion refused because the scan does not know all the
// entry holds: a directory left out by --exclude, not read in full, or
// not listed before the scan was stopped.
var ErrUnknown = errors.New("holds what the scan did not read (excluded, or unreadable): not deleted")

// ErrNotEmpty is a directory holding a name the scan did not list: an
// entry made since the scan, found by the checks' listing or, made during
// the deletion, by the directory's removal.
var ErrNotEmpty = errors.New("holds entries made since the scan: rescan first")

// ErrGone is an entry not found where the scan saw it, in a directory
// that is the one scanned: deleted or moved since. It leaves the tree.
var ErrGone = errors.New("not there any more (deleted or moved since the scan); taken out of the view")

// ErrAbove is a directory on the way to the entry that is not the one
// scanned (moved, removed or replaced since): scan again from the top.
var ErrAbove = errors.New("a directory above it changed since the scan: rescan from the top (T, then r)")

// StoppedError is a deletion that stopped part-way, having deleted what it
// counts: the entry's directory on disk then holds the rest, which the
// tree holds too (what was deleted has left it). Err says why it stopped:
// an entry found changed since the checks, named; or the context's cause.
type StoppedError struct {
	Files int64 // entries other than directories deleted
	Dirs  int64 // directories deleted
	Bytes int64 // their disk usage as the scan counted it (a hard link once)
	Left  int64 // the entries not deleted, the entry itself among them
	Err   error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("stopped after deleting %d files and %d directories (%d bytes), %d entries left: %v", e.Files, e.Dirs, e.Bytes, e.Left, e.Err)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// Hooks for tests, nil otherwise: AfterChecks runs once a deletion's or
// a move's checks of what is below have all passed, before anything is
// deleted or moved; BeforeUnlink before each entry the deletion removes.
var (
	AfterChecks  func()
	BeforeUnlink func()
)

const (
	// wasDir marks an entry left out by --exclude that is a directory.
	wasDir Flags = 1 << 14
	// gone marks, during a deletion, an entry no longer on disk.
	gone Flags = 1 << 13
)

// target finds the entry name of the directory at dirNames for a change
// (Delete, Move): its directory and itself, or why it may not be changed.
func (t *Tree) target(dirNames []string, name string) (dir, k *Node, err error) {
	dir = t.Find(dirNames)
	if dir == nil || dir.Dir == nil {
		return nil, nil, ErrChanged
	}
	if k = dir.Dir.Lookup(name); k == nil {
		return nil, nil, fs.ErrNotExist
	}
	if err := refused(k, dir.Dir.Dev, []string{name}); err != nil {
		return nil, nil, err
	}
	return dir, k, nil
}

// refused says why the entry n, in a directory on device dev, must not be
// deleted, from what the tree knows, naming the entry below it at fault:
// nil if it may be.
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
	case n.Flags&(ReadError|Unfinished) != 0:
		err = ErrUnknown
	}
	if err != nil {
		return &pathError{path, err}
	}
	c := n.Dir.cursor()
	var k Node
	for c.next(&k) {
		if err := refused(&k, n.Dir.Dev, append(path, k.Name)); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes the entry name from the directory at dirNames (the names
// below the root), on disk and in the tree, then counts the tree again.
// It stops at the next entry once ctx is done.
//
// It deletes what the scan found and nothing else, in two phases. The
// first deletes nothing: it walks the whole entry through descriptors
// (the directories above from the root down, each checked by device and
// inode; each directory opened relative to its parent, never through a
// symbolic link; at most 8 open at any depth) and refuses, naming the
// entry at fault:
//   - ErrUnknown: the tree marks something below as unread (a directory
//     excluded or not read in full; an excluded file is deleted with the
//     rest);
//   - ErrOtherFS: something below is on another file system, or an entry
//     (a file too) is a mount point: another device, another mount id
//     than the entry's directory's, or a mount's root, which a bind mount
//     of the same file system is;
//   - ErrNotEmpty: a directory holds a name the scan did not list;
//   - ErrChanged: an entry is not the one scanned: another type, device
//     or inode, or the inode number of a file made since, as a freed
//     number is given again. The entry scanned was born (statx's birth
//     time; where the file system keeps none, last changed, as ctime
//     says, unless by this program's own deletions) strictly before the
//     scan that listed its directory began, Dir.Scanned (a directory's
//     own), or 2 s before where the file system may truncate times;
//   - an error of the system's, such as a directory it may not write.
//
// An entry gone since the scan is passed over.
//
// The second phase deletes depth first, checking each entry again as it
// goes: a file as above just before its unlink, a directory on the way
// down against what the first phase found (device, inode, birth time and
// ctime: anything made or deleted in it since shows), on the way up
// (found again through "..", entries of its own deleted) by device, inode
// and, where times are exact, birth time (overlayfs gives a directory a
// new one as it copies it up to delete in it). At the first difference,
// or error, it stops and
// returns a *StoppedError counting what it deleted; the tree then holds
// the rest.
//
// A refusal deletes nothing and leaves the tree as it was; ErrGone (the
// entry not found) takes it out of the tree.
func (t *Tree) Delete(ctx context.Context, dirNames []string, name string) error {
	dir, k, err := t.target(dirNames, name)
	if err != nil {
		return err
	}
	if t.ours == nil {
		t.ours = map[frd.ID]int64{}
	}
	out, err := t.remove(ctx, dirNames, dir.Dir, k)
	// The tree follows the disk: out of it goes what the deletion found
	// gone, its own deletions and what went otherwise.
	var stopped *StoppedError
	errors.As(err, &stopped)
	// Whatever it deleted is marked gone, so the entry or the count below
	// it says whether the tree changed.
	changed := false
	switch {
	case k.Flags&gone != 0 || k.Dir != nil && k.Dir.own.flags&gone != 0:
		dir.Dir.Remove(name)
		changed = true
	case k.Dir != nil:
		items := k.Dir.Items
		left := prune(k.Dir)
		changed = left != items
		if stopped != nil {
			stopped.Left = 1 + left
		}
	case stopped != nil:
		stopped.Left = 1
	}
	if changed {
		t.unlinked(out.links)
		t.Recount()
	}
	return err
}

// outcome is what a deletion did on disk, for the tree to follow: the
// links it deleted of each file with several.
type outcome struct {
	links map[frd.ID]uint32
}

// prune takes the entries marked gone out of d, at every depth, and
// counts the entries left below d.
func prune(d *Dir) int64 {
	var left int64
	kids := d.Entries()
	keep := kids[:0]
	for _, k := range kids {
		if k.Flags&gone != 0 {
			continue
		}
		left++
		if k.Dir != nil {
			left += prune(k.Dir)
		}
		keep = append(keep, k)
	}
	if len(keep) < len(kids) {
		d.set(keep)
	}
	return left
}

// unlinked lowers the link counts of the files whose links were deleted,
// as the disk's did; one link left is no hard link.
func (t *Tree) unlinked(ids map[frd.ID]uint32) {
	if len(ids) == 0 {
		return
	}
	var walk func(d *Dir)
	walk = func(d *Dir) {
		c := d.cursor()
		var k Node
		changed := false
		for c.next(&k) {
			if k.Dir != nil {
				walk(k.Dir)
			} else if ids[frd.ID{Dev: d.Dev, Ino: k.Ino}] > 0 && k.Flags&HardLink != 0 {
				changed = true
			}
		}
		if changed {
			lowerLinks(d, ids)
		}
	}
	walk(t.Top)
}

// lowerLinks lowers, in d, the link counts of the files in ids.
func lowerLinks(d *Dir, ids map[frd.ID]uint32) {
	kids := d.Entries()
	for i := range kids {
		k := &kids[i]
		if gone := ids[frd.ID{Dev: d.Dev, Ino: k.Ino}]; gone > 0 && k.Dir == nil && k.Flags&HardLink != 0 {
			k.Nlink -= min(gone, k.Nlink-1)
			if k.Nlink <= 1 {
				k.Flags &^= HardLink
			}
		}
	}
	d.set(kids)
}

// timeSlack is how much earlier than Dir.Scanned an entry must be born on
// a file system that may truncate times (FAT keeps 2 s).
const timeSlack = 2e9

// times are an entry's birth time and ctime on disk, in ns since 1970.
type times struct {
	btime    int64
	hasBtime bool // the file system gave a birth time
	ctime    int64
}

// sameAsScanned decides whether an entry found on disk with the scanned
// device and inode is the one scanned: born strictly before scanned (its
// directory's Dir.Scanned), or, without a birth time, last changed before
// it, since a file made after it is stamped no earlier; exact is false
// where the file system may truncate times, which are then compared with
// scanned less timeSlack. ours, if not 0, is a time no earlier than this
// program's own last change of the inode: a ctime up to it is that change,
// and so is a birth time where times are not exact (overlayfs gives a
// directory a new one when it copies it up to delete in it).
func sameAsScanned(t times, scanned int64, exact bool, ours int64) bool {
	if !exact {
		scanned -= timeSlack
	}
	born := t.ctime
	if t.hasBtime {
		born = t.btime
	}
	return born < scanned || ours != 0 && born <= ours && (!t.hasBtime || !exact)
}

// ExcludedBelow counts the entries at or below n left out by --exclude:
// files, which deleting n deletes too, and directories, whose contents
// were never read and which make a deletion of n refused.
func (n *Node) ExcludedBelow() (files, dirs int64) {
	if n.Flags&Excluded != 0 {
		if n.Flags&wasDir != 0 || n.Ino == 0 {
			return 0, 1
		}
		return 1, 0
	}
	if n.Dir == nil {
		return 0, 0
	}
	c := n.Dir.cursor()
	var k Node
	for c.next(&k) {
		f, d := k.ExcludedBelow()
		files, dirs = files+f, dirs+d
	}
	return files, dirs
}

// pathError names where below the root a deletion failed.
type pathError struct {
	path []string
	err  error
}

// Error puts the reason first: a long path is what a narrow screen cuts.
func (e *pathError) Error() string { return e.err.Error() + " (at " + strings.Join(e.path, "/") + ")" }
func (e *pathError) Unwrap() error { return e.err }
