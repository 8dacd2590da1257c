package du

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/walk"
)

// Progress counts the scans as they go, for a progress display. Its
// methods are called from the walk's workers, at once.
type Progress interface {
	// Listed counts a directory listed, or one part of a huge one: its
	// entries, and the bytes they and the directory itself use.
	Listed(entries int, bytes uint64)
}

// Scanner scans the command line's arguments one after another, as one
// run of du: what they share (the arguments' own files, the directories
// walked) is kept across them.
type Scanner struct {
	cfg      *Config
	argIDs   map[frd.ID]bool // the command line's files: seen twice, counted once
	progress Progress        // nil unless progress is shown
	moved    bool            // Sum met a moved directory: du stops there

	dirsMu sync.Mutex
	dirs   map[frd.ID]walkedDir // every directory walked, when du counts each once
	listed atomic.Int64         // directories whose entries were counted
}

// NewScanner is a run's scanner; progress may be nil.
func NewScanner(cfg *Config, progress Progress) *Scanner {
	return &Scanner{cfg: cfg, argIDs: map[frd.ID]bool{}, progress: progress}
}

// Config is the run's configuration.
func (s *Scanner) Config() *Config { return s.cfg }

// Stopped reports whether a sum met a directory moved while it was
// walked: du stops there, and walks no later argument.
func (s *Scanner) Stopped() bool { return s.moved }

// showProgress passes one listing to the progress display, if shown.
func (s *Scanner) showProgress(entries int, bytes uint64) {
	if s.progress != nil {
		s.progress.Listed(entries, bytes)
	}
}

// treeScan is one Scan: the tree it builds, and its Live when read live.
type treeScan struct {
	s    *Scanner
	top  *Dir
	live *Live
}

// Scan walks the directory root and returns its tree.
func (s *Scanner) Scan(ctx context.Context, root string) (*Dir, error) {
	t := &treeScan{s: s, top: &Dir{}}
	err := walk.Dirs(ctx, root, s.cfg.WalkOptions(true, t.onError), t.dir)
	return t.top, err
}

// dir keeps one directory's listing, or one part of it, in its node.
func (t *treeScan) dir(d *walk.Dir) error {
	s, n := t.s, t.nodeOf(d)
	if d.Batch == 0 && !t.walkHere(n, d) { // the directory itself, with its first part
		return fs.SkipDir
	}
	listed := len(d.Entries)
	pos := n.nentries
	n.nentries += listed
	cut := func() { // where fts's batches of a huge directory end
		if pos++; pos%ftsBatch == 0 {
			n.cuts = append(n.cuts, n.items.len())
		}
	}
	var bytes uint64
	s.entries(d,
		func(e *frd.Entry) { // under -L, a symbolic link to a directory too
			n.expect(e.Name)
			cut()
		},
		func(e *frd.Entry) {
			u := s.entryUsage(e, d)
			bytes += u.Size
			if hash := s.hashed(e); hash || s.namesFiles() {
				n.keep(e, u, hash, s.namesFiles())
			} else {
				n.sum.Add(u)
			}
			cut()
		})
	if d.Batch == 0 {
		bytes += n.own.Size
	}
	s.showProgress(listed, bytes)
	if t.live != nil && !d.More {
		t.live.listed(n)
	}
	return nil
}

// post marks d's subtree walked, for a live report.
func (t *treeScan) post(d *walk.Dir) error {
	n := t.nodeOf(d)
	t.live.walked(n, n.expected == nil)
	return nil
}

// skipped marks d, a subdirectory the walk does not visit, as read for a
// live report; its node stays as onError left it: Unreadable, or else
// Unreached, which du does not count.
func (t *treeScan) skipped(d *walk.Dir) { t.live.walked(t.nodeOf(d), false) }

// walkHere records the directory d, reached, in its node n, and reports
// whether it is walked here: not when it was walked before by another
// path.
func (t *treeScan) walkHere(n *Dir, d *walk.Dir) bool {
	n.state = Listed
	n.dev, n.ino = d.Info.Device, d.Info.FileID
	if first := t.s.walkedBefore(n, d); first != nil {
		n.same = first
		return false
	}
	t.s.listed.Add(1)
	n.own = t.s.entryUsage(&d.Info, d)
	return true
}

// namesFiles reports whether the scan keeps every file as an item, named:
// -a prints each one's line, and a view shows each.
func (s *Scanner) namesFiles() bool { return s.cfg.All || s.cfg.KeepFiles }

// keep adds e, a file of n that uses u, as an item; hash sends it through
// the hard-link set, and named keeps its name.
func (n *Dir) keep(e *frd.Entry, u Usage, hash, named bool) {
	it := Item{size: u.Size, ino: e.FileID}
	if hash || u.TMax != (units.Stamp{}) || e.Device != n.dev {
		it.more = &itemMore{dev: e.Device, tmax: u.TMax, hash: hash}
	}
	if named {
		it.off, it.len = n.addName(e.Name)
	}
	n.items.add(it)
}

// expect adds the subdirectory name to n's items, its node waiting for
// the walk to reach it.
func (n *Dir) expect(name string) {
	c := &Dir{}
	n.mu.Lock()
	it := Item{dir: c}
	it.off, it.len = n.addName(name)
	n.items.add(it)
	if n.expected == nil {
		n.expected = make(map[string]*Dir)
	}
	n.expected[strings.Clone(name)] = c
	n.mu.Unlock()
}

// take returns the expected subdirectory name of n, or a new node when the
// walk reached one the listing did not show as a directory (a followed
// symbolic link).
func (n *Dir) take(name string) *Dir {
	n.mu.Lock()
	defer n.mu.Unlock()
	if c, ok := n.expected[name]; ok {
		delete(n.expected, name)
		return c
	}
	c := &Dir{}
	it := Item{dir: c}
	it.off, it.len = n.addName(name)
	n.items.add(it)
	return c
}

// nodeOf returns the node of d, making it the first time: from the
// expected subdirectories of d's parent.
func (t *treeScan) nodeOf(d *walk.Dir) *Dir {
	if n, ok := d.Data.(*Dir); ok {
		return n
	}
	n := t.top
	if d.Parent != nil {
		n = d.Parent.Data.(*Dir).take(filepath.Base(d.Path))
	}
	d.Data = n
	return n
}

// walkedBefore records n as the directory (dev, ino) and returns the node
// it was walked as before, if any: under -L or with several arguments du
// counts a directory once and does not descend it again, so fdu does not
// walk it again either. Which occurrence du counts is its order's first;
// the report decides that, reading the one walked through any of them.
func (s *Scanner) walkedBefore(n *Dir, d *walk.Dir) *Dir {
	if !s.cfg.DirsOnce() {
		return nil
	}
	id := frd.ID{Dev: n.dev, Ino: n.ino}
	s.dirsMu.Lock()
	defer s.dirsMu.Unlock()
	if first, ok := s.dirs[id]; ok {
		first.n.walkPath = s.walkedPath(id) // for the report to name its errors where du meets them
		return first.n
	}
	if s.dirs == nil {
		s.dirs = make(map[frd.ID]walkedDir)
	}
	w := walkedDir{n: n, name: d.Path, root: true}
	if d.Parent != nil {
		w.parent, w.name, w.root = d.Parent.Info.ID(), d.Info.Name, false
	}
	s.dirs[id] = w
	return nil
}

// walkedDir is a directory walked, under DirsOnce: its node, and where it
// was walked, as its name in the directory it was walked in (its path, a
// root's). Its path, kept whole, would cost the square of a chain's depth.
type walkedDir struct {
	n      *Dir
	parent frd.ID
	name   string
	root   bool
}

// walkedPath is the path the directory id was walked at, from the names
// up to its root's. s.dirsMu is held.
func (s *Scanner) walkedPath(id frd.ID) string {
	var names []string
	for range len(s.dirs) {
		w, ok := s.dirs[id]
		if !ok {
			break
		}
		names = append(names, w.name)
		if w.root {
			break
		}
		id = w.parent
	}
	// The walk's joining: a separator between names, none after a root
	// that ends with one.
	var b strings.Builder
	for i := len(names) - 1; i >= 0; i-- {
		if p := b.String(); p != "" && !os.IsPathSeparator(p[len(p)-1]) {
			b.WriteByte(filepath.Separator)
		}
		b.WriteString(names[i])
	}
	return b.String()
}

// loopAlias makes d, a directory that is one of its own ancestors, stand
// for that ancestor's walk.
func (t *treeScan) loopAlias(d *walk.Dir) {
	dev, ino := d.Info.Device, d.Info.FileID
	for a := d.Parent; a != nil; a = a.Parent {
		an, ok := a.Data.(*Dir)
		if !ok || an.dev != dev || an.ino != ino {
			continue
		}
		n := t.nodeOf(d)
		n.state, n.dev, n.ino, n.same = Listed, dev, ino, an
		t.s.dirsMu.Lock()
		an.walkPath = ancestorPath(d, a)
		t.s.dirsMu.Unlock()
		return
	}
}

// ancestorPath is the path of a, an ancestor of d: the walk keeps the
// paths of the root and of the directory it visits, not of those between.
func ancestorPath(d, a *walk.Dir) string {
	if a.Parent == nil {
		return a.Path
	}
	p := d.Path
	for range d.Depth - a.Depth {
		p = p[:strings.LastIndexByte(p, filepath.Separator)]
	}
	return p
}

// entryUsage is what entry e counts for.
// d is the directory holding e, or e is d's own Info: --time=atime stats
// it through d's descriptor.
func (s *Scanner) entryUsage(e *frd.Entry, d *walk.Dir) Usage {
	u := Usage{Inodes: 1}
	if s.cfg.Apparent {
		u.Size = uint64(max(e.Size, 0))
	} else {
		u.Size = uint64(e.Allocated)
	}
	if s.cfg.ShowTime {
		u.TMax = s.entryTime(e, d)
	}
	return u
}

// entryTime is the time --time shows of e: frd's, unless it is the access
// time frd does not read, or saturated (past 2262) and so read again.
func (s *Scanner) entryTime(e *frd.Entry, d *walk.Dir) units.Stamp {
	ns := e.ModTimeNanos
	if s.cfg.TimeType == "ctime" {
		ns = e.ChangeTimeNanos
	}
	if t, ok := units.FromNanos(ns); ok && s.cfg.TimeType != "atime" {
		return t
	}
	if e == &d.Info {
		return timeAt(s.cfg.TimeType, d.Fd(), "", false)
	}
	return timeAt(s.cfg.TimeType, d.Fd(), e.Name, s.cfg.Deref == DerefAll)
}

// entries runs through d's listing as du sees it (the walk has left out
// the entries it could not stat). It leaves out those --exclude names,
// keeps the directories in d.Entries for the walk to descend into, and
// calls dir for each of them and file for every other entry.
func (s *Scanner) entries(d *walk.Dir, dir, file func(e *frd.Entry)) {
	keep := d.Entries[:0]
	for i := range d.Entries {
		e := &d.Entries[i]
		if s.cfg.Exclude.HasPatterns() && s.cfg.Exclude.Excluded(childPath(d.Path, e.Name)) {
			continue
		}
		if e.Type.IsDir() {
			dir(e)
			keep = append(keep, *e)
			continue
		}
		file(e)
	}
	d.Entries = keep
}

// hashed reports whether e must go through the hard-link set: every file
// when du hashes all (several arguments, -L), else those with several
// links, and the command line's own files.
func (s *Scanner) hashed(e *frd.Entry) bool {
	return s.cfg.HashAll || e.Links > 1 || s.argIDs[frd.ID{Dev: e.Device, Ino: e.FileID}]
}

// childPath is the path du prints for name in dir: fts appends "/name",
// first dropping one trailing slash of dir.
func childPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
