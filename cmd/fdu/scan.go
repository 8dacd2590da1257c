package main

import (
	"context"
	"errors"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/cmd/internal/coldprocs"
	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/walk"
)

// usage is what du adds up for one file or directory.
type usage struct {
	size   uint64 // bytes: apparent, or allocated (blocks * 512)
	inodes uint64
	tmax   stamp // the latest time
}

func (u *usage) add(v usage) {
	u.size += v.size
	u.inodes += v.inodes
	if v.tmax.after(u.tmax) {
		u.tmax = v.tmax
	}
}

// item is a file kept for the report, or a subdirectory, in listing order.
// Under -a a directory of a million files keeps a million: 40 bytes each,
// the name in the directory's names, and the rare rest behind more.
type item struct {
	dir  *dnode    // a subdirectory, else nil
	more *itemMore // a file's time, device and hard-link flag, when it has them
	size uint64    // a file's bytes, as usage.size counts them
	ino  uint64    // a file's inode number
	off  uint32    // the name: the owning node's names[off:off+len]
	len  uint32    // 0 for a file kept without its name
}

// itemList holds a directory's items in chunks, so that a directory of a
// million files grows without copying what it holds, or leaving the
// copies for the collector.
type itemList struct{ chunks [][]item }

const itemChunk = 1024

func (l *itemList) add(it item) {
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == itemChunk {
		size := 0 // the first chunk grows as a slice does: most directories hold few
		if k > 0 {
			size = itemChunk
		}
		l.chunks = append(l.chunks, make([]item, 0, size))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, it)
}

// all is each item in order.
func (l *itemList) all() iter.Seq[*item] {
	return func(yield func(*item) bool) {
		for _, c := range l.chunks {
			for i := range c {
				if !yield(&c[i]) {
					return
				}
			}
		}
	}
}

func (l *itemList) len() int {
	n := 0
	for _, c := range l.chunks {
		n += len(c)
	}
	return n
}

// sortedIn is l as one chunk, each span between cuts (item counts) sorted
// by cmp, stably, if sort says so of its index.
func (l *itemList) sortedIn(cuts []int, sort func(span int) bool, cmp func(a, b item) int) itemList {
	var flat []item
	for _, c := range l.chunks {
		flat = append(flat, c...)
	}
	start := 0
	for i, end := range append(slices.Clone(cuts), len(flat)) {
		if end > len(flat) || end < start {
			break
		}
		if sort(i) {
			slices.SortStableFunc(flat[start:end], cmp)
		}
		start = end
	}
	return itemList{chunks: [][]item{flat}}
}

// ftsBatch is the most entries gnulib's fts reads of a directory at once
// (FTS_MAX_READDIR_ENTRIES); it sorts each batch of over ftsSortMin by
// inode number on its own.
const (
	ftsBatch   = 100000
	ftsSortMin = 10000
)

// itemMore is what a file item needs beyond its size, only sometimes:
// its time under --time, its device when not the directory's (-L), and
// whether it goes through the hard-link set.
type itemMore struct {
	dev  uint64
	tmax stamp
	hash bool
}

// name is it's name in n.
func (n *dnode) name(it *item) string {
	if it.len == 0 {
		return ""
	}
	return unsafe.String(&n.names[it.off], it.len)
}

// addName stores name in n's names and returns its place.
func (n *dnode) addName(name string) (off, length uint32) {
	off = uint32(len(n.names))
	n.names = append(n.names, name...)
	return off, uint32(len(name))
}

// use is a file item's usage, as the report adds it.
func (it *item) use() usage {
	u := usage{size: it.size, inodes: 1}
	if it.more != nil {
		u.tmax = it.more.tmax
	}
	return u
}

// linkID is a file item's (device, inode) for the hard-link set, and
// whether it goes through it.
func (n *dnode) linkID(it *item) (dev, ino uint64, hash bool) {
	if it.more == nil {
		return n.dev, it.ino, false
	}
	return it.more.dev, it.ino, it.more.hash
}

// Directory states.
const (
	pending    = iota // listed in its parent, never reached: skipped (-x, vanished)
	visited           // listed
	unreadable        // could not be opened or read
)

// dnode is one directory of a scan: what the report needs of it, and no
// more (files are summed into sum unless the report must see each).
type dnode struct {
	state    uint8
	moved    bool   // renamed or removed while its subtree was walked
	same     *dnode // the directory, reached before by another path: walked there
	walkPath string // where it was walked, once another path has led to it
	own      usage  // the directory's own size, inode and time
	dev, ino uint64
	sum      usage     // files not kept as items
	items    itemList  // subdirectories, and the files the report must see
	names    []byte    // the items' names, one after another
	cuts     []int     // len(items) after each ftsBatch entries listed
	nentries int       // entries listed, for du's inode sort of huge directories
	errs     []duError // its own, and its entries' that could not be stat'ed

	mu      sync.Mutex
	pending map[string]*dnode // subdirectories not reached yet, by name
}

// scanner turns a walk into a tree of dnodes.
type scanner struct {
	cfg      *config
	argIDs   map[[2]uint64]bool // the command line's files: seen twice, counted once
	progress *progress          // nil unless progress is shown
	moved    bool               // sumDir met a moved directory: du stops there

	dirsMu sync.Mutex
	dirs   map[[2]uint64]walkedDir // every directory walked, when du counts each once
	listed atomic.Int64            // directories whose entries were counted
}

// walkedBefore records n as the directory (dev, ino) and returns the node
// it was walked as before, if any: under -L or with several arguments du
// counts a directory once and does not descend it again, so fdu does not
// walk it again either. Which occurrence du counts is its order's first;
// the report decides that, reading the one walked through any of them.
func (s *scanner) walkedBefore(n *dnode, path string, dev, ino uint64) *dnode {
	if !s.cfg.hashAll || s.cfg.countLinks {
		return nil
	}
	s.dirsMu.Lock()
	defer s.dirsMu.Unlock()
	if first, ok := s.dirs[[2]uint64{dev, ino}]; ok {
		first.n.walkPath = first.path // for the report to name its errors where du meets them
		return first.n
	}
	if s.dirs == nil {
		s.dirs = make(map[[2]uint64]walkedDir)
	}
	s.dirs[[2]uint64{dev, ino}] = walkedDir{n, path}
	return nil
}

type walkedDir struct {
	n    *dnode
	path string
}

// loopAlias makes d, a directory that is one of its own ancestors, stand
// for that ancestor's walk.
func (s *scanner) loopAlias(top *dnode, d *walk.Dir) {
	dev, ino := d.Info.Device, d.Info.FileID
	for a := d.Parent; a != nil; a = a.Parent {
		an, ok := a.Data.(*dnode)
		if !ok || an.dev != dev || an.ino != ino {
			continue
		}
		n := s.nodeOf(top, d)
		n.state, n.dev, n.ino, n.same = visited, dev, ino, an
		s.dirsMu.Lock()
		an.walkPath = a.Path
		s.dirsMu.Unlock()
		return
	}
}

// walked is the node holding n's walk: n, or the one n is the same
// directory as.
func (n *dnode) walked() *dnode {
	if n.same != nil {
		return n.same
	}
	return n
}

// movedError is du's message for a directory moved while it was walked:
// fts's, when ".." no longer leads back to the parent.
func movedError(path string) string {
	return "fts_read failed: " + quotef(path) + ": No such file or directory"
}

// entryUsage is what entry e counts for.
// d is the directory holding e, or e is d's own Info: --time=atime stats
// it through d's descriptor.
func (s *scanner) entryUsage(e *frd.Entry, d *walk.Dir) usage {
	u := usage{inodes: 1}
	if s.cfg.apparent {
		u.size = uint64(max(e.Size, 0))
	} else {
		u.size = uint64(e.Allocated)
	}
	if s.cfg.showTime {
		u.tmax = s.entryTime(e, d)
	}
	return u
}

// entryTime is the time --time shows of e: frd's, unless it is the access
// time frd does not read, or saturated (past 2262) and so read again.
func (s *scanner) entryTime(e *frd.Entry, d *walk.Dir) stamp {
	ns := e.ModTimeNanos
	if s.cfg.timeType == "ctime" {
		ns = e.ChangeTimeNanos
	}
	if t, ok := nanoStamp(ns); ok && s.cfg.timeType != "atime" {
		return t
	}
	if e == &d.Info {
		return timeAt(s.cfg.timeType, d.Fd(), "", false)
	}
	return timeAt(s.cfg.timeType, d.Fd(), e.Name, s.cfg.deref == derefAll)
}

// scanDir walks the directory root and returns its tree.
func (s *scanner) scanDir(ctx context.Context, root string) (*dnode, error) {
	top := &dnode{}
	var (
		mu   sync.Mutex
		errs []error
	)
	opts := &walk.Options{
		Workers:        s.cfg.jobs,
		IOWorkers:      coldprocs.Extra(s.cfg.jobs),
		OnIOWorkers:    coldprocs.Hook(),
		OneFileSystem:  s.cfg.oneFS,
		FollowSymlinks: s.cfg.deref == derefAll,
		StatAll:        true,
		Reuse:          true, // the tree keeps copies of the names, and no Dir
		Batches:        true, // a huge directory's listing is never held whole
		DetectMoves:    true,
		ReportVanished: true, // du cannot access what went between the listing and the stat
		OnError: func(e *walk.Error) error {
			s.onError(top, e)
			return nil
		},
	}
	err := walk.Dirs(ctx, root, opts, func(d *walk.Dir) error {
		n := s.nodeOf(top, d)
		if d.Batch == 0 { // the directory itself, with its first part
			n.state = visited
			n.dev, n.ino = d.Info.Device, d.Info.FileID
			if first := s.walkedBefore(n, d.Path, n.dev, n.ino); first != nil {
				n.same = first
				return fs.SkipDir
			}
			s.listed.Add(1)
			n.own = s.entryUsage(&d.Info, d)
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
				c := &dnode{}
				n.mu.Lock()
				it := item{dir: c}
				it.off, it.len = n.addName(e.Name)
				n.items.add(it)
				if n.pending == nil {
					n.pending = make(map[string]*dnode)
				}
				n.pending[strings.Clone(e.Name)] = c
				n.mu.Unlock()
				cut()
			},
			func(e *frd.Entry, path string) {
				u := s.entryUsage(e, d)
				bytes += u.size
				hash := s.hashed(e)
				if s.cfg.all || s.cfg.keepFiles || hash {
					it := item{size: u.size, ino: e.FileID}
					if hash || u.tmax != (stamp{}) || e.Device != n.dev {
						it.more = &itemMore{dev: e.Device, tmax: u.tmax, hash: hash}
					}
					if s.cfg.all || s.cfg.keepFiles {
						it.off, it.len = n.addName(e.Name)
					}
					n.items.add(it)
				} else {
					n.sum.add(u)
				}
				cut()
			})
		if d.Batch == 0 {
			bytes += n.own.size
		}
		s.progress.add(listed, bytes)
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		errs = append(errs, err)
	}
	return top, errors.Join(errs...)
}

// nodeOf returns the node of d, making it the first time: from the pending
// subdirectories of d's parent.
func (s *scanner) nodeOf(top *dnode, d *walk.Dir) *dnode {
	if n, ok := d.Data.(*dnode); ok {
		return n
	}
	n := top
	if d.Parent != nil {
		n = d.Parent.Data.(*dnode).take(filepath.Base(d.Path))
	}
	d.Data = n
	return n
}

// entries runs through d's listing as du sees it (the walk has left out
// the entries it could not stat). It leaves out those --exclude names,
// keeps the directories in d.Entries for the walk to descend into, and
// calls dir for each of them and file for every other entry, with its path
// when a pattern needs one.
func (s *scanner) entries(d *walk.Dir, dir func(e *frd.Entry), file func(e *frd.Entry, path string)) {
	keep := d.Entries[:0]
	for i := range d.Entries {
		e := &d.Entries[i]
		var path string
		if len(s.cfg.exclude.patterns) > 0 {
			path = childPath(d.Path, e.Name)
			if s.cfg.exclude.excluded(path) {
				continue
			}
		}
		if e.Type.IsDir() {
			dir(e)
			keep = append(keep, *e)
			continue
		}
		file(e, path)
	}
	d.Entries = keep
}

// hashed reports whether e must go through the hard-link set: every file
// when du hashes all (several arguments, -L), else those with several
// links, and the command line's own files.
func (s *scanner) hashed(e *frd.Entry) bool {
	return s.cfg.hashAll || e.Links > 1 || s.argIDs[[2]uint64{e.Device, e.FileID}]
}

// take returns the pending subdirectory name of n, or a new node when the
// walk reached one the listing did not show as a directory (a followed
// symbolic link).
func (n *dnode) take(name string) *dnode {
	n.mu.Lock()
	defer n.mu.Unlock()
	if c, ok := n.pending[name]; ok {
		delete(n.pending, name)
		return c
	}
	c := &dnode{}
	it := item{dir: c}
	it.off, it.len = n.addName(name)
	n.items.add(it)
	return c
}

// onError records a walk error where the report will print it, in du's
// words.
func (s *scanner) onError(top *dnode, e *walk.Error) {
	d := e.Dir
	if d != nil && errors.Is(e.Err, walk.ErrMoved) {
		s.nodeOf(top, d).moved = true // the report stops there, as du does
		return
	}
	if d != nil && errors.Is(e.Err, walk.ErrLoop) && s.cfg.deref == derefAll && s.cfg.hashAll && !s.cfg.countLinks {
		// Under -L a link back to an ancestor is, to du, a directory seen
		// before, or the first way its order meets it when the walk went
		// down another way first: the report decides, as for any
		// directory reached twice.
		s.loopAlias(top, d)
		return
	}
	if d == nil || errors.Is(e.Err, walk.ErrLoop) {
		// du leaves a cycle out without a word: its node stays pending,
		// and the report skips it.
		return
	}
	msg := s.accessError(e)
	if e.Path == d.Path && d.Parent != nil && errors.Is(e.Err, fs.ErrPermission) && !canStat(d.Path) {
		// Not even stat'able: its parent may be read but not searched.
		// du's fts stats it first and says it cannot access it; it is
		// left out, as its node stays pending.
		p := d.Parent.Data.(*dnode)
		p.mu.Lock()
		p.errs = append(p.errs, duError{e.Path, msg})
		p.mu.Unlock()
		return
	}
	if e.Path == d.Path {
		// The directory itself: not opened, or not read to its end.
		msg = "cannot read directory " + quote(e.Path) + ": " + strerror(e.Err)
		if d.Data == nil {
			n := s.nodeOf(top, d)
			n.state = unreadable
			// Under -L through the link: two links to one unreadable
			// directory are one directory, counted and reported once.
			if st, err := statArg(s, d.Path, s.cfg.deref == derefAll); err == nil {
				n.own, n.dev, n.ino = st.use, st.dev, st.ino
			}
		}
	}
	n := s.nodeOf(top, d)
	n.mu.Lock()
	n.errs = append(n.errs, duError{e.Path, msg})
	n.mu.Unlock()
}

// canStat reports whether path can be stat'ed, without following a link.
func canStat(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// argError is du's message for a command-line argument that could not be
// stat'ed: a dangling symbolic link followed (-L, -H, -D) says no more, as
// fts reports it.
func (s *scanner) argError(a arg) string {
	if s.cfg.deref != derefNone && errors.Is(a.err, fs.ErrNotExist) {
		if _, ok := lstatUsage(s, a.path); ok {
			return "cannot access " + quote(a.path)
		}
	}
	return "cannot access " + quote(a.path) + ": " + strerror(a.err)
}

// accessError is du's message for an entry that could not be stat'ed.
func (s *scanner) accessError(e *walk.Error) string {
	if s.cfg.deref == derefAll && errors.Is(e.Err, fs.ErrNotExist) && canStat(e.Path) {
		return "cannot access " + quote(e.Path) // a dangling link, as fts reports it
	}
	return "cannot access " + quote(e.Path) + ": " + strerror(e.Err)
}

// childPath is the path du prints for name in dir: fts appends "/name",
// first dropping one trailing slash of dir.
func childPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
