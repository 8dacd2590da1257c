//go:build unix

package dutree

import (
	"context"
	"errors"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// diskEntry is what a deletion compares of an entry on disk with the scan.
type diskEntry struct {
	mode     uint32 // the S_IFMT bits
	dev, ino uint64
	nlink    uint64
	times
	mnt       uint64 // the mount's id, where the system gives it (hasMnt)
	hasMnt    bool
	mountRoot bool // the root of a mount, a bind mount included
}

// remove deletes k, an entry of the directory in at dirNames, in the two
// phases Delete describes, and says what it did on disk.
func (t *Tree) remove(ctx context.Context, dirNames []string, in *Dir, k *Node) (outcome, error) {
	fd, err := t.openDir(dirNames)
	if err != nil {
		return outcome{}, aboveError(err)
	}
	defer unix.Close(fd)
	top, err := statAt(fd, "")
	if err != nil {
		return outcome{}, err
	}
	if _, err := statAt(fd, k.Name); errors.Is(err, unix.ENOENT) {
		k.SetFlags(k.Flags | gone)
		return outcome{}, ErrGone // in the directory scanned, checked: not moved above
	}
	d := &deletion{t: t, ctx: ctx, root: k, top: fd, dev: in.Dev, mnt: top.mnt, hasMnt: top.hasMnt,
		exact: exactTimes(fd, &top), ids: map[*Dir]diskEntry{}}
	defer d.closeAll()
	if err := writable(fd); err != nil {
		return outcome{}, err
	}
	if err := d.check(in); err != nil {
		return outcome{}, err
	}
	if AfterChecks != nil {
		AfterChecks()
	}
	err = d.delete(in)
	// What this deletion changed and left: a ctime up to now is its own;
	// where times are not exact, a birth time too, given by a copy-up to
	// every directory above what it deleted.
	now := time.Now().UnixNano()
	if d.topChanged {
		t.ours[frd.ID{Dev: top.dev, Ino: top.ino}] = now
	}
	for _, l := range d.stack {
		if l.changed || !d.exact && d.files+d.dirs > 0 {
			t.ours[frd.ID{Dev: d.dev, Ino: l.node.Ino}] = now
		}
	}
	if !d.exact && d.files+d.dirs > 0 {
		root := t.Root()
		for n, i := &root, 0; n != nil && n.Dir != nil; i++ {
			t.ours[frd.ID{Dev: n.Dir.Dev, Ino: n.Ino}] = now
			if i == len(dirNames) {
				break
			}
			n = n.Dir.Lookup(dirNames[i])
		}
	}
	return outcome{links: d.links}, err
}

// deletion is one Delete's walk: the first phase's checks, then the
// second's deletions, each depth first through descriptors.
type deletion struct {
	t     *Tree
	ctx   context.Context
	root  *Node // the entry deleted
	top   int   // its directory, open throughout
	dev   uint64
	mnt   uint64 // the mount its directory is on (hasMnt)
	exact bool   // the file system's times are exact to the ns

	hasMnt bool
	ids    map[*Dir]diskEntry // each directory as the first phase found it

	stack []*level
	open  int // descriptors open on the stack
	buf   []byte
	names []string

	// The second phase's count.
	files, dirs, bytes int64
	links              map[frd.ID]uint32 // links deleted of each file with several
	topChanged         bool              // an entry of top deleted
}

// level is a directory being walked: its descriptor (-1 while closed for
// the budget) and its entries, read one at a time.
type level struct {
	node    Node
	fd      int
	kids    cursor
	kid     Node // the entry read last
	changed bool // an entry of it deleted
}

// more reads l's next entry into l.kid, false at the end.
func (l *level) more() bool { return l.kids.next(&l.kid) }

// openBudget is the most descriptors a deletion keeps open, whatever the
// depth: deeper, the directories above are closed and found again from
// below through "..", checked to be the ones found before.
const openBudget = 8

// check is the first phase: it deletes nothing, and says why the entry
// must not be deleted, naming the entry at fault.
func (d *deletion) check(in *Dir) error {
	k := d.root
	if err := d.stop(); err != nil {
		return err
	}
	if k.Dir == nil {
		st, err := statAt(d.top, k.Name)
		if err == nil {
			err = d.sameFile(k, in.Scanned, &st)
		}
		if err != nil && !errors.Is(err, unix.ENOENT) {
			return &pathError{[]string{k.Name}, err}
		}
		return nil
	}
	if err := d.enter(d.top, k); err != nil {
		return err
	}
	for len(d.stack) > 0 {
		l := d.stack[len(d.stack)-1]
		if !l.more() {
			d.stack = d.stack[:len(d.stack)-1]
			var err error
			if len(d.stack) > 0 {
				_, err = d.reopen(d.stack[len(d.stack)-1], l)
			}
			d.close(l)
			if err != nil {
				return err
			}
			continue
		}
		if err := d.stop(); err != nil {
			return err
		}
		kid := &l.kid
		if kid.Dir != nil {
			if err := d.enter(l.fd, kid); err != nil {
				return err
			}
			continue
		}
		st, err := statAt(l.fd, kid.Name)
		if errors.Is(err, unix.ENOENT) {
			continue // gone since the scan: nothing of it to delete
		}
		if err == nil {
			err = d.sameFile(kid, l.node.Dir.Scanned, &st)
		}
		if err != nil {
			return &pathError{d.path(kid.Name), err}
		}
	}
	return nil
}

// enter opens n, a directory in the directory parent, checks it is the one
// scanned and lists no name the scan did not, records it for the second
// phase, and pushes it on the stack. A directory gone since the scan is
// passed over.
func (d *deletion) enter(parent int, n *Node) error {
	fd, st, err := d.openAt(parent, n.Name)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err == nil {
		err = d.sameDir(n, &st)
		if err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		return &pathError{d.path(n.Name), err}
	}
	d.ids[n.Dir] = st
	d.push(n, fd)
	if err := writable(fd); err != nil {
		return &pathError{d.path(""), err}
	}
	return d.listed(fd, n)
}

// writable says why the entries of the directory fd cannot be deleted
// (its permissions, a read-only mount), so that the first phase refuses
// rather than the second stop on it.
func writable(fd int) error {
	return unix.Faccessat(fd, ".", unix.W_OK|unix.X_OK, unix.AT_EACCESS)
}

// delete is the second phase: it deletes depth first, each entry checked
// again, and stops at the first difference with a *StoppedError.
func (d *deletion) delete(in *Dir) error {
	k := d.root
	if err := d.stop(); err != nil {
		return err
	}
	if k.Dir == nil {
		if err := d.unlink(d.top, k, in.Scanned); err != nil {
			return d.stopped(&pathError{[]string{k.Name}, err})
		}
		d.topChanged = d.files > 0
		return nil
	}
	if err := d.descend(d.top, k); err != nil {
		return err
	}
	for len(d.stack) > 0 {
		if err := d.stop(); err != nil {
			return err
		}
		l := d.stack[len(d.stack)-1]
		if !l.more() {
			if err := d.rmdir(l); err != nil {
				return err
			}
			continue
		}
		kid := &l.kid
		if kid.Dir != nil {
			if err := d.descend(l.fd, kid); err != nil {
				return err
			}
			continue
		}
		n := d.files
		if err := d.unlink(l.fd, kid, l.node.Dir.Scanned); err != nil {
			return d.stopped(&pathError{d.path(kid.Name), err})
		}
		l.changed = l.changed || d.files > n
	}
	return nil
}

// descend opens n, a directory in the directory parent, for the second
// phase: it must be the directory the first phase found, unchanged since
// (its ctime too: nothing made or deleted in it).
func (d *deletion) descend(parent int, n *Node) error {
	fd, st, err := d.openAt(parent, n.Name)
	if errors.Is(err, unix.ENOENT) {
		n.SetFlags(n.Flags | gone) // and what it held with it
		if n == d.root {
			return ErrGone
		}
		return nil
	}
	if err == nil {
		err = d.asFound(n, &st, true)
		if err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		return d.stopped(&pathError{d.path(n.Name), err})
	}
	d.push(n, fd)
	return nil
}

// rmdir removes the directory l, emptied, from the directory above it,
// and pops it.
func (d *deletion) rmdir(l *level) error {
	d.stack = d.stack[:len(d.stack)-1]
	parent, err := d.top, error(nil)
	var up *level
	if len(d.stack) > 0 {
		up = d.stack[len(d.stack)-1]
		parent, err = d.reopen(up, l)
	}
	d.close(l)
	if err != nil {
		return d.stopped(err)
	}
	path := d.path(l.node.Name)
	st, err := statAt(parent, l.node.Name)
	if err == nil {
		err = d.asFound(&l.node, &st, false)
	}
	if err == nil && BeforeUnlink != nil {
		BeforeUnlink()
	}
	if err == nil {
		err = unix.Unlinkat(parent, l.node.Name, unix.AT_REMOVEDIR)
	}
	switch {
	case errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST):
		err = ErrNotEmpty // made since it was entered
	case errors.Is(err, unix.EBUSY):
		err = ErrOtherFS // mounted on since
	}
	if err != nil {
		if l.changed { // emptied of entries, and left
			d.t.ours[frd.ID{Dev: d.dev, Ino: l.node.Ino}] = time.Now().UnixNano()
		}
		return d.stopped(&pathError{path, err})
	}
	l.node.SetFlags(l.node.Flags | gone)
	d.dirs++
	d.bytes = sat(d.bytes, l.node.Dsize)
	if up != nil {
		up.changed = true
	} else {
		d.topChanged = true
	}
	return nil
}

// unlink deletes the file k from the directory fd, checked to be the one
// scanned in a directory listed at scanned. A file gone already is
// passed over.
func (d *deletion) unlink(fd int, k *Node, scanned int64) error {
	st, err := statAt(fd, k.Name)
	if err == nil {
		err = d.sameFile(k, scanned, &st)
	}
	if err == nil && BeforeUnlink != nil {
		BeforeUnlink()
	}
	if err == nil {
		err = unix.Unlinkat(fd, k.Name, 0)
	}
	switch {
	case errors.Is(err, unix.ENOENT):
		k.SetFlags(k.Flags | gone)
		return nil
	case errors.Is(err, unix.EBUSY):
		return ErrOtherFS // mounted on since
	case err != nil:
		return err
	}
	k.SetFlags(k.Flags | gone)
	d.files++
	if k.Flags&LinkSeen == 0 {
		d.bytes = sat(d.bytes, k.Dsize)
	}
	if st.nlink > 1 {
		// Its other links' ctime is this deletion's now.
		id := frd.ID{Dev: st.dev, Ino: st.ino}
		if d.links == nil {
			d.links = map[frd.ID]uint32{}
		}
		d.links[id]++
		d.t.ours[id] = time.Now().UnixNano()
	}
	return nil
}
