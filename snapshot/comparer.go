package snapshot

import (
	"context"
	"errors"
	"io/fs"
)

// comparer is one compare: the older snapshot read ahead, the other side
// (the tree, or a later snapshot), and the changes found, in path order.
type comparer struct {
	ctx   context.Context
	opts  CompareOptions
	head  Header
	rules rules
	ex    *excluder
	mv    *mover
	fn    func(*Change) error

	rd  *Reader // the older snapshot
	rc  *Reader // the later one, for CompareSnapshots
	old *stream // rd's directories, each with its check against the tree
	cur *stream // rc's directories

	tree *treeSide // the tree, for Compare
}

// dirBoth compares the directory rel, present on both sides, whose
// record p is the snapshot's.
func (c *comparer) dirBoth(rel string, p *pending) error {
	items, later, err := c.itemsOf(rel, p)
	if err != nil {
		return err
	}
	if err := c.items(rel, items, p.rec.devs); err != nil {
		return err
	}
	// Done with both records: their entries' storage can be used again.
	c.rd.recycle(p.rec)
	if later != nil {
		c.rc.recycle(later)
	}
	return nil
}

// itemsOf is the compare of rel's entries: the check's (Compare) or a
// merge with the later snapshot's record (CompareSnapshots), which it
// returns too.
func (c *comparer) itemsOf(rel string, p *pending) ([]item, *Dir, error) {
	if c.tree != nil {
		items, err := c.tree.itemsOf(c, rel, p)
		return items, nil, err
	}
	q, err := c.cur.record(rel)
	if err != nil || q == nil {
		if err == nil {
			err = c.notRead(rel, p.rec)
		}
		return nil, nil, err
	}
	hash := func(x *Entry) func() string { return func() string { return x.Hash } }
	return mergeDir(p.rec.Entries, q.rec.Entries, nil, p.rec.devs, &c.rules, hash), q.rec, nil
}

// notRead reports a directory the later snapshot could not read, and
// passes over the older snapshot's directories below it.
func (c *comparer) notRead(rel string, rec *Dir) error {
	if err := c.mv.add(&Change{Kind: Racy, Path: rel, Old: rec.Self, Err: ErrNotRead}); err != nil {
		return err
	}
	return c.old.skip(rel)
}

// items reports a directory's items in name order, each followed by what
// changed below it; devs is the older snapshot's device table as of the
// directory.
func (c *comparer) items(rel string, items []item, devs []Device) error {
	for i := range items {
		it := &items[i]
		path := joinRel(rel, it.name)
		if c.ex.excluded(path, it.name) {
			if err := c.skipBoth(path, it.old, it.cur); err != nil {
				return err
			}
			continue
		}
		if it.kind != 0 {
			ch := &Change{Kind: it.kind, Path: path, Fields: it.fields, Err: it.err, movable: it.moves}
			if it.old != nil {
				ch.Old = *it.old
			}
			if it.cur != nil && it.kind != Unreadable {
				ch.New = *it.cur
			}
			if err := c.mv.add(ch); err != nil {
				return err
			}
		}
		if err := c.below(path, it, devs); err != nil {
			return err
		}
	}
	return nil
}

// below reports what changed below the item at path.
func (c *comparer) below(path string, it *item, devs []Device) error {
	oldDir := it.old != nil && it.old.Type.IsDir()
	curDir := it.cur != nil && it.cur.Type.IsDir() && it.kind != Unreadable
	switch {
	case it.kind == Unreadable:
		if oldDir {
			return c.old.skip(path)
		}
	case it.old != nil && it.old.Unread:
		// Nothing is known below it.
		if curDir {
			return c.skipCur(path)
		}
	case oldDir && curDir:
		p, err := c.old.record(path)
		if err != nil {
			return err
		}
		if p == nil {
			// The snapshot could not read it: nothing below is known.
			if err := c.mv.add(&Change{Kind: Racy, Path: path, Old: *it.old, New: *it.cur, Err: ErrNotRead}); err != nil {
				return err
			}
			return c.skipCur(path)
		}
		return c.dirBoth(path, p)
	case oldDir:
		return c.gone(path)
	case curDir:
		return c.added(path, devs)
	}
	return nil
}

// gone reports everything the snapshot holds below path as removed.
func (c *comparer) gone(path string) error {
	p, err := c.old.record(path)
	if err != nil || p == nil {
		return err
	}
	return c.goneRecord(path, p.rec)
}

func (c *comparer) goneRecord(path string, rec *Dir) error {
	for i := range rec.Entries {
		x := &rec.Entries[i]
		child := joinRel(path, x.Name)
		if c.ex.excluded(child, x.Name) {
			if err := c.skipBoth(child, x, nil); err != nil {
				return err
			}
			continue
		}
		if err := c.mv.add(&Change{Kind: Removed, Path: child, Old: *x, movable: c.rules.movable(x, rec.devs)}); err != nil {
			return err
		}
		if x.Type.IsDir() {
			if err := c.gone(child); err != nil {
				return err
			}
		}
	}
	return nil
}

// added reports everything the later side holds below path as added;
// devs is the device table that tells which file systems keep inode
// numbers across renames.
func (c *comparer) added(path string, devs []Device) error {
	var entries []Entry
	var errs []error
	if c.tree != nil {
		var err error
		entries, errs, err = c.tree.listNow(path)
		if err != nil {
			return c.unreadable(path, err)
		}
	} else {
		q, err := c.cur.record(path)
		if err != nil || q == nil {
			return err
		}
		entries, devs = q.rec.Entries, q.rec.devs
	}
	for i := range entries {
		x := &entries[i]
		child := joinRel(path, x.Name)
		if c.ex.excluded(child, x.Name) {
			if err := c.skipBoth(child, nil, x); err != nil {
				return err
			}
			continue
		}
		ch := &Change{Kind: Added, Path: child, New: *x, movable: c.rules.movable(x, devs)}
		if errs != nil && errs[i] != nil {
			ch = &Change{Kind: Unreadable, Path: child, Err: errs[i]}
		}
		if err := c.mv.add(ch); err != nil {
			return err
		}
		if x.Type.IsDir() && ch.Kind == Added {
			if err := c.added(child, devs); err != nil {
				return err
			}
		}
	}
	return nil
}

// unreadable reports a directory that cannot be read now; an error that
// says it is gone since its parent was read is no change of its own.
func (c *comparer) unreadable(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return c.mv.add(&Change{Kind: Unreadable, Path: path, Err: err})
}

// skipBoth passes over the directories below an excluded entry, old as
// the snapshot recorded it and cur as found (either may be nil).
func (c *comparer) skipBoth(path string, old, cur *Entry) error {
	if old != nil && old.Type.IsDir() {
		if err := c.old.skip(path); err != nil {
			return err
		}
	}
	if cur != nil && cur.Type.IsDir() {
		return c.skipCur(path)
	}
	return nil
}

// skipCur passes over the later snapshot's directories below path.
func (c *comparer) skipCur(path string) error {
	if c.cur == nil {
		return nil
	}
	return c.cur.skip(path)
}
