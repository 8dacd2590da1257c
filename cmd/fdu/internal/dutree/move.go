package dutree

import (
	"context"
	"errors"
	"io/fs"
)

// ErrNotRegular is an entry that Truncate refuses: not a regular file as
// the scan saw it (a directory, a link, a device, or left out by
// --exclude and never stat'ed).
var ErrNotRegular = errors.New("not a regular file: only a file can be emptied")

// Move hands the entry name of the directory at dirNames to move, which
// takes it out of that directory (to a trash), after the checks of
// Delete's first phase: what Delete would refuse, Move refuses, and
// nothing is moved. The entry itself is checked again just before move
// runs, with the descriptor of its directory, which move must use (a
// rename relative to it) rather than a path, and same, which checks that
// what it moved (by its new directory and name) is the entry checked: a
// rename acts on a name, which another user may have given to another
// entry in between. Once move succeeds the entry leaves the tree, which
// is counted again.
func (t *Tree) Move(ctx context.Context, dirNames []string, name string, move func(dirfd int, name string, same func(fd int, name string) error) error) error {
	dir, k, err := t.target(dirNames, name)
	if err != nil {
		return err
	}
	err = t.move(ctx, dirNames, dir.Dir, k, move)
	if err == nil || errors.Is(err, ErrGone) {
		dir.Dir.Remove(name)
		t.Recount()
	}
	return err
}

// Truncate empties the regular file name of the directory at dirNames, if
// it is still the file scanned (its device, inode and birth as Delete
// checks them), opened without following a link relative to its checked
// directory; its sizes in the tree become the disk's.
func (t *Tree) Truncate(dirNames []string, name string) error {
	dir := t.Find(dirNames)
	if dir == nil || dir.Dir == nil {
		return ErrChanged
	}
	k := dir.Dir.Lookup(name)
	switch {
	case k == nil:
		return fs.ErrNotExist
	case k.Dir != nil || k.Flags&(Symlink|NotReg|Excluded|OtherFS|KernFS) != 0 || k.Ino == 0:
		return ErrNotRegular
	}
	asize, dsize, err := t.truncate(dirNames, dir.Dir, k)
	switch {
	case errors.Is(err, ErrGone):
		dir.Dir.Remove(name)
	case err != nil:
		return err
	default:
		t.resized(dir.Dir.Dev, k.Ino, asize, dsize)
	}
	t.Recount()
	return err
}

// resized gives every link in the tree to the file dev and ino its new
// sizes.
func (t *Tree) resized(dev, ino uint64, asize, dsize int64) {
	var walk func(d *Dir)
	walk = func(d *Dir) {
		kids := d.Entries()
		changed := false
		for i := range kids {
			k := &kids[i]
			if k.Dir != nil {
				walk(k.Dir)
			} else if d.Dev == dev && k.Ino == ino && k.Flags&(Symlink|NotReg|Excluded) == 0 {
				k.Asize, k.Dsize, changed = asize, dsize, true
			}
		}
		if changed {
			d.set(kids)
		}
	}
	if t.Top != nil {
		walk(t.Top)
	}
}
