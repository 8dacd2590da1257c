package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"syscall"

	"github.com/pbednarcik/flexreaddir/frd"
)

// testHookListed, set by tests, is called with each directory of the
// snapshot that a compare lists again.
var testHookListed func(rel string)

// treeSide is the tree a snapshot is compared with: its root, open, and
// the workers' listers.
type treeSide struct {
	root    dirFile
	keys    Keys
	pf      *prefetch
	listers []frd.Lister // one per worker, and the last the compare's own
}

// runTree compares the snapshot with the tree at dir.
func (c *comparer) runTree(dir string) (err error) {
	root, err := openRoot(dir)
	if err != nil {
		return err
	}
	defer closeDir(root)
	workers, release := planWorkers(c.opts.Workers)
	defer release()
	c.tree = &treeSide{root: root, keys: c.rules.keys, listers: make([]frd.Lister, workers+1)}
	c.tree.pf = startPrefetch(c.ctx, c.rd, workers, c.check)
	defer c.tree.pf.stop()
	c.old = c.tree.pf.stream()
	return c.run()
}

// runSnapshots compares the two snapshots.
func (c *comparer) runSnapshots() error {
	c.old, c.cur = readerStream(c.rd), readerStream(c.rc)
	if err := c.run(); err != nil {
		return err
	}
	return c.cur.end()
}

// run compares from the root down, then checks that the snapshot held
// nothing more and sends on the changes held back.
func (c *comparer) run() error {
	p, err := c.old.record("")
	if err != nil {
		return err
	}
	if p == nil {
		return orphan("") // the reader makes sure the root comes first
	}
	if err := c.dirBoth("", p); err != nil {
		return err
	}
	if err := c.old.end(); err != nil {
		return err
	}
	return c.mv.flush(true)
}

// check checks one directory of the snapshot against the tree, on a
// worker: it lists the directory again unless its own stat shows it
// unchanged (canSkipList), then merges.
func (c *comparer) check(ctx context.Context, j *job, worker int) {
	t := c.tree
	df, err := t.open(j.rec.Path)
	if err != nil {
		j.err = err
		return
	}
	defer t.close(df)
	self, err := statSelf(df)
	if err != nil {
		j.err = err
		return
	}
	if c.canSkipList(j.rec, &self) {
		j.items = checkNames(df, j.rec.Entries, t.keys, j.rec.devs, &c.rules)
		return
	}
	if testHookListed != nil {
		testHookListed(j.rec.Path)
	}
	curs, errs, err := readDir(&t.listers[worker], df, t.keys)
	if err != nil {
		j.err = err
		return
	}
	hash := func(x *Entry) func() string { return func() string { return hashAt(df, x) } }
	j.items = mergeDir(j.rec.Entries, curs, errs, j.rec.devs, &c.rules, hash)
}

// canSkipList reports whether the directory rec, whose stat is now self,
// still holds the names it held: it is the same directory, on a file
// system that changes a directory's times with each name added or
// removed, its modification and change times are as they were, and they
// were outside the racy window when the snapshot was taken.
func (c *comparer) canSkipList(rec *Dir, self *Entry) bool {
	was := &rec.Self
	return rec.Device.DirTimes && self.Device == rec.Device.ID && self.FileID == was.FileID &&
		self.ModTime == was.ModTime && self.ChangeTime == was.ChangeTime && !racy(&c.head, &rec.Device, was)
}

// itemsOf waits for the check of the directory rel and returns its items.
// A directory gone since its parent was checked is taken as empty; one
// that cannot be read is reported, and nothing below it.
func (t *treeSide) itemsOf(c *comparer, rel string, p *pending) ([]item, error) {
	select {
	case <-p.job.done:
	case <-c.ctx.Done():
		return nil, c.ctx.Err()
	}
	switch err := p.job.err; {
	case err == nil:
		return p.job.items, nil
	case c.ctx.Err() != nil:
		return nil, c.ctx.Err()
	case gone(err):
		return mergeDir(p.rec.Entries, nil, nil, p.rec.devs, &c.rules, nil), nil
	default:
		if err := c.mv.add(&Change{Kind: Unreadable, Path: rel, Old: p.rec.Self, Err: err}); err != nil {
			return nil, err
		}
		return nil, c.old.skip(rel)
	}
}

// gone reports whether err says a directory is no longer there, or no
// longer a directory reached without a link.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP)
}

// listNow reads the directory rel now, on the compare's own goroutine.
func (t *treeSide) listNow(rel string) ([]Entry, []error, error) {
	df, err := t.open(rel)
	if err != nil {
		return nil, nil, err
	}
	defer t.close(df)
	return readDir(&t.listers[len(t.listers)-1], df, t.keys)
}

// open opens the directory rel below the root ("" is the root itself).
func (t *treeSide) open(rel string) (dirFile, error) {
	if rel == "" {
		return t.root, nil
	}
	return openRel(t.root, rel)
}

func (t *treeSide) close(df dirFile) {
	if df.fd != t.root.fd || df.path != t.root.path {
		closeDir(df)
	}
}

// readDir lists df and stats each entry, sorted by name. An entry removed
// meanwhile is left out; one that cannot be stat'ed is kept with its
// listed type and its error in errs (nil when there is none).
func readDir(l *frd.Lister, df dirFile, keys Keys) ([]Entry, []error, error) {
	names, err := listNames(l, df, nil)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(names, frd.CompareName)
	olds := make([]Entry, len(names))
	for i, n := range names {
		olds[i] = Entry{Name: strings.Clone(n.Name), Type: n.Type}
	}
	curs, errs := statNames(df, olds, keys)
	return curs, errs, nil
}

// statNames stats each of names (sorted) in df, as statAt does.
func statNames(df dirFile, names []Entry, keys Keys) ([]Entry, []error) {
	curs := make([]Entry, 0, len(names))
	var errs []error
	for i := range names {
		x, err := statAt(df, names[i].Name, keys)
		switch {
		case err == nil:
			mask(&x, keys)
		case errors.Is(err, fs.ErrNotExist):
			continue
		default:
			if errs == nil {
				errs = make([]error, len(curs), len(names))
			}
			x = Entry{Name: names[i].Name, Type: names[i].Type}
		}
		curs = append(curs, x)
		if errs != nil {
			errs = append(errs, err)
		}
	}
	return curs, errs
}
