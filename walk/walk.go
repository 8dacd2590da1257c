package walk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// Options configure a walk. The zero value (and a nil *Options) walks with
// GOMAXPROCS workers, crosses file systems, follows no symbolic link, has
// no depth limit, and reports every hard link.
type Options struct {
	// Workers is the number of goroutines listing directories; 0 means
	// runtime.GOMAXPROCS(0). Callbacks run on these goroutines.
	Workers int

	// IOWorkers, when positive, lets the walk start up to that many more
	// goroutines while its directories are read from the disk rather
	// than from the cache (a visit takes far longer than a cached listing
	// of its size), so that more reads are outstanding than there are
	// CPUs; each ends once its visits are fast again or nothing is left
	// to take. Callbacks run on them too: up to Workers+IOWorkers at once.
	IOWorkers int

	// OnIOWorkers, when set, is called with the number of extra workers
	// (IOWorkers) running each time it changes, one call at a time and in
	// the order of the changes. Go runs at most GOMAXPROCS goroutines at
	// once and hands the P of one blocked in a system call to another only
	// once its monitor notices, tens of microseconds later or more: the
	// extra workers wait on the disk together only as far as GOMAXPROCS
	// lets them. A command that owns its process may raise GOMAXPROCS while
	// they run (fdu does). It runs on a goroutine of its own; a count that
	// changes again before a call may be passed over, but the last, 0, is
	// passed before Dirs returns. It must not call into the walk, and a
	// panic in it is raised again by Dirs.
	OnIOWorkers func(running int)

	// OneFileSystem skips directories on another file system than the
	// root's: they are neither listed nor passed to a callback (du -x).
	OneFileSystem bool

	// FollowSymlinks descends into symbolic links to directories. A link
	// to one of its own ancestors (by device and inode) is reported as an
	// error wrapping ErrLoop and not descended, as is, with or without
	// this option, a directory that is its own ancestor (a bind mount of
	// an ancestor). The root is followed when it is a symbolic link
	// whatever this says.
	FollowSymlinks bool

	// MaxDepth, when positive, lists directories down to that depth only:
	// the root is depth 0, its subdirectories depth 1. Directories deeper
	// than MaxDepth still appear in their parent's listing.
	MaxDepth int

	// Sorted passes each listing sorted by name. With Workers set to 1 the
	// whole walk is then the same on every run: directories come depth
	// first, in name order. (Not filepath.WalkDir's order, which visits a
	// subdirectory's tree between its parent's entries.)
	Sorted bool

	// Names lists names and types only: no stat per file (frd's
	// Lister.Names).
	Names bool

	// FastStats is frd's Lister.FastStats for every worker: stats that
	// bypass the scheduler while they are fast on a local disk. Off by
	// default: a stat that blocks meanwhile holds its P.
	FastStats bool

	// Reuse lets the walk reuse the storage of what it hands to the
	// callbacks once they are done with it: the entries' names (frd's
	// Lister.ReuseNames), valid like Dir.Entries only during the DirFunc,
	// and each Dir, valid until its Post returns, or without Post until
	// the last DirFunc of its subtree returns (its subdirectories' calls
	// may read it through Parent). An Error's Dir is then valid only
	// during OnError, and the error Dirs returns has none. A walk that
	// keeps nothing, such as a disk-usage sum, then allocates almost
	// nothing per directory beyond its path; a caller that keeps a name
	// copies it (strings.Clone). Walk and WalkDir ignore Reuse, since
	// their fs.DirEntry values are often kept.
	Reuse bool

	// StatAll fills the metadata of every entry that is not a directory,
	// as frd fills a regular file's: symbolic links, devices, FIFOs and
	// sockets, one stat each relative to the directory. A disk-usage tool
	// counts them too. Under FollowSymlinks a symbolic link is stat'ed
	// through: it keeps fs.ModeSymlink, gains the type bits of what it
	// leads to (fs.ModeSymlink|fs.ModeDir for a link to a directory), and
	// carries that target's metadata (a dangling link under
	// FollowSymlinks cannot be). An entry that cannot be stat'ed, with or
	// without StatAll, is reported and left out of Dir.Entries.
	StatAll bool

	// HardLinksOnce reports a regular file with more than one link only
	// the first time the walk meets it (by device and inode); later links
	// are left out of their listings. Which link comes first depends on
	// the workers' timing unless Workers is 1.
	HardLinksOnce bool

	// SplitDirSize: a directory whose own size (st_size) is at least this
	// many bytes is listed names first, and its files are then stat'ed by
	// Workers goroutines at once, so one huge directory does not leave the
	// other cores idle. 0 means the default, DefaultSplitDirSize; a negative
	// value never splits. It has no effect with one worker or under Names.
	SplitDirSize int64

	// MaxOpenDirs bounds the directory descriptors the walk keeps open
	// between listing a directory and opening its subdirectories, besides
	// the root's; 0 means a quarter of RLIMIT_NOFILE's soft limit, at
	// least 4 and at most 1,024, and a negative value none (every
	// directory is then found again from the root). See Dirs for the
	// total.
	MaxOpenDirs int

	// Post, when set, is called for each directory passed to the DirFunc,
	// after Post has returned for every directory below it. Post calls for
	// siblings may run at once on different workers; a directory's Post
	// happens after its descendants' Posts return. Returning SkipAll ends
	// the walk; another non-nil error ends it and is returned.
	Post func(d *Dir) error

	// Batches passes each directory to the DirFunc in parts, one call per
	// kernel buffer read (on Linux; elsewhere a directory is one part), so
	// that a consumer that only counts, as du -s does, never holds a huge
	// directory's listing: Dir.Entries is then the part, Dir.Batch numbers
	// the calls from 0 and Dir.More reports that parts follow. SkipDir
	// from any part ends the directory: no more of it is read, and none
	// of its subdirectories is walked. The files of a part of a directory
	// over SplitDirSize are stat'ed across the workers. Ignored under
	// Sorted, which needs the whole listing.
	Batches bool

	// ReportVanished reports each entry removed between its directory's
	// listing and its stat, as an error wrapping fs.ErrNotExist (ENOENT):
	// du says it cannot access it. Without it such an entry is left out
	// without a word, as it is with it too.
	ReportVanished bool

	// DetectMoves reports a directory that was renamed or removed while
	// its subtree was walked, as an error wrapping ErrMoved once its
	// subdirectories are done (before its Post): the listing is then no
	// picture of any one moment of the tree, and du reports it as fts
	// does when ".." no longer leads back. It costs a stat for each
	// directory with subdirectories. Unix only: the by-path walks of
	// other systems do not check.
	DetectMoves bool

	// OnError, when set, is called for each error met on the way: a
	// directory that cannot be opened or listed, an entry that cannot be
	// stat'ed. Returning nil goes on; a non-nil error ends the walk and is
	// returned. Without OnError the walk goes on and returns the first
	// error it met.
	OnError func(err *Error) error
}

// DefaultSplitDirSize is the directory size from which a walk splits a
// directory's stats across its workers: 20 KiB, an ext4 directory of about
// 500 entries with short names. Measured in BENCHMARKS.md: with two workers
// a lone directory of 500 to 100,000 files walks 22 to 30% faster split;
// splitting every directory of a source tree, whose directories hold a few
// dozen entries, costs 10%.
const DefaultSplitDirSize = 20 << 10

// ErrLoop is wrapped by the error reported for a directory that is one of
// its own ancestors, by device and inode: a symbolic link back up the
// tree under FollowSymlinks, or a bind mount of an ancestor. It is not
// descended.
var ErrLoop = errors.New("walk: directory loop")

// ErrMoved is wrapped by the error reported for a directory that moved
// during the walk, under Options.DetectMoves.
var ErrMoved = errors.New("walk: directory moved during the walk")

// Error is an error met at a path during a walk.
type Error struct {
	Path  string // the directory or entry that failed
	Depth int    // the depth of Path: 0 for the root
	Err   error  // often an *os.PathError
	// Dir is the directory being opened or listed when the error came, or
	// the one holding the entry that failed. For a directory that could not
	// be opened it has Path, Depth and Parent only. Valid until the walk
	// ends.
	// Under Options.Reuse it is valid only during OnError, and the
	// error Dirs returns has none.
	Dir *Dir
}

func (e *Error) Error() string {
	var pe *os.PathError
	if errors.As(e.Err, &pe) && pe.Path == e.Path {
		return e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Dir is one directory of a walk.
type Dir struct {
	Path  string // the root as given, joined with the names below it
	Depth int    // 0 for the root
	// Info is the directory's own metadata from a stat of its open
	// descriptor: Name (the last element of Path), Type (fs.ModeDir), Size,
	// ModTimeNanos, ChangeTimeNanos, FileID, Allocated, Links and Device,
	// filled for a directory as frd fills them for a regular file.
	Info frd.Entry
	// Entries is the directory's listing, in the kernel's order or sorted
	// under Options.Sorted. It is valid only during the DirFunc: the
	// worker reuses its storage. The DirFunc may remove entries (for
	// example with slices.DeleteFunc); the walk descends only into the
	// directories left in it.
	Entries []frd.Entry
	// Err is set when the directory could not be listed in full: Entries
	// then holds what was read before the error, which was also reported.
	Err error
	// Parent is the directory above, nil for the root.
	Parent *Dir
	// Data is the caller's, for carrying state from the DirFunc to Post
	// and from a directory to its parent. The walk never touches it.
	Data any
	// Batch numbers the DirFunc's calls for this directory under
	// Options.Batches, from 0; More is set when more parts follow.
	Batch int
	More  bool

	fd handle // the open directory, during the DirFunc
}

// Fd returns the open directory's descriptor (a Unix file descriptor, or
// on Windows a handle), for working relative to it during the DirFunc
// (openat, fstatat, linkat...) without walking its path again. It is valid
// only during the DirFunc; the walk closes it. Never close it yourself.
func (d *Dir) Fd() uintptr { return handleFd(d.fd) }

// A DirFunc is called once for each directory of a walk, with its listing.
// Calls for different directories run at once on different workers.
//
// Returning fs.SkipDir skips the directory's subdirectories; fs.SkipAll
// ends the walk, and Dirs returns nil; another non-nil error ends the walk
// and Dirs returns it.
type DirFunc func(d *Dir) error

// node is a directory the walk has found: its Dir and the state the
// workers share about it.
type node struct {
	dir    Dir
	parent *node
	// fdn is its name in its parent and, while its subdirectories wait to
	// be opened from it, its kept descriptor (Follow: a symbolic link
	// followed to a directory).
	fdn fdNode

	visited bool  // passed to the DirFunc, so Post is due
	hasSubs bool  // subdirectories were queued, so a move is checked
	links   int32 // symbolic links followed on the way from the root

	unopened  atomic.Int32 // subdirectories not opened yet
	remaining atomic.Int32 // this directory's own work and its unfinished subdirectories
	dev, ino  uint64
}

type walker struct {
	ctx  context.Context
	opts Options
	fn   DirFunc

	mu      sync.Mutex
	cond    sync.Cond
	stack   []*node // LIFO: depth first, so few directories wait at once
	busy    int     // workers processing a node
	stopped bool
	ended   bool  // Dirs is returning: a late cancellation changes nothing
	stopErr error // what ended the walk early
	first   error // the first error reported, when OnError is nil

	panicked any  // the first panic of a callback, re-raised by Dirs
	goexit   bool // a callback called runtime.Goexit

	splitAt int64 // Options.SplitDirSize, resolved

	wg       sync.WaitGroup // the workers
	ioMax    int            // Options.IOWorkers, within the descriptors
	ioActive int            // the extra workers running, under mu
	ioNotify chan struct{}  // wakes runIOHook, when OnIOWorkers is set

	freeMu sync.Mutex
	free   []*node // finished nodes, under Options.Reuse

	fds      *fdSet // the descriptors kept open for subdirectories
	rootDev  uint64
	links    *LinkSet
	rootOpen func() (handle, error) // opens the root instead of its path (DirsFile)
}

// Dirs walks the tree rooted at root, calling fn for each directory with
// its listing, root first. Directories are listed by Options.Workers
// goroutines at once.
//
// Dirs returns nil after a complete walk in which no error was met; the
// error fn or Post returned, or one OnError returned, when that ended the
// walk; ctx's error when it was cancelled first; and otherwise the first
// error met (the walk went on past it). A root that is not a directory is
// an error.
//
// On Linux, macOS and the BSDs every directory is opened relative to its
// parent's descriptor, or found again from its nearest open ancestor,
// never through a symbolic link it was not asked to follow. The walk holds
// at most Options.MaxOpenDirs descriptors kept between listings, the
// root's, and one or two per worker; where RLIMIT_NOFILE leaves fewer
// than that needs, it runs fewer workers and keeps fewer descriptors
// rather than fail. However the walk ends (an error, SkipAll, a cancelled
// ctx, a panic), every descriptor it opened is closed when Dirs returns.
//
// A panic in fn, Post or OnError stops the walk and is raised again, with
// its value, in the goroutine that called Dirs once the workers have
// stopped (the worker's stack is not kept: recover in the callback to see
// it); a runtime.Goexit there is passed on the same way. A nil fn is an
// error.
func Dirs(ctx context.Context, root string, opts *Options, fn DirFunc) error {
	return dirs(ctx, root, nil, opts, fn)
}

// dirs is Dirs, with the root opened by rootOpen when it is set.
func dirs(ctx context.Context, root string, rootOpen func() (handle, error), opts *Options, fn DirFunc) error {
	if fn == nil {
		return errors.New("walk: Dirs with a nil DirFunc")
	}
	w := &walker{ctx: ctx, fn: fn, rootOpen: rootOpen}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.Workers <= 0 {
		w.opts.Workers = runtime.GOMAXPROCS(0)
	}
	var kept int
	var release func()
	w.opts.Workers, w.ioMax, kept, release = plan(ctx, w.opts.Workers, max(w.opts.IOWorkers, 0), w.opts.MaxOpenDirs)
	defer release()
	w.fds = newSet(kept)
	if w.opts.HardLinksOnce {
		w.links = NewLinkSet()
	}
	switch w.splitAt = w.opts.SplitDirSize; {
	case w.splitAt < 0 || w.opts.Workers == 1 || w.opts.Names:
		w.splitAt = 0
	case w.splitAt == 0:
		w.splitAt = DefaultSplitDirSize
	}
	w.cond.L = &w.mu

	rn := &node{fdn: fdNode{Name: root}}
	rn.dir = Dir{Path: root, fd: noHandle}
	rn.remaining.Store(1)
	w.stack = append(w.stack, rn)

	var hookStop, hookDone chan struct{}
	if w.opts.OnIOWorkers != nil && w.ioMax > 0 {
		w.ioNotify = make(chan struct{}, 1)
		hookStop, hookDone = make(chan struct{}), make(chan struct{})
		go w.runIOHook(hookStop, hookDone)
	}
	for range w.opts.Workers {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.work(false)
		}()
	}
	stop := context.AfterFunc(ctx, func() { w.stop(ctx.Err()) })
	w.wg.Wait()
	stop()
	if hookStop != nil {
		close(hookStop)
		<-hookDone
	}
	w.fds.CloseAll() // what an early stop left kept
	w.mu.Lock()
	w.ended = true
	stopErr, first, panicked, goexit := w.stopErr, w.first, w.panicked, w.goexit
	w.mu.Unlock()
	switch {
	case panicked != nil:
		panic(panicked)
	case goexit:
		runtime.Goexit()
	case errors.Is(stopErr, fs.SkipAll):
		return nil
	case stopErr != nil:
		return stopErr
	}
	return first
}

// stop ends the walk with err, the first time it is called.
func (w *walker) stop(err error) {
	w.mu.Lock()
	if !w.stopped && !w.ended {
		w.stopped = true
		w.stopErr = err
	}
	w.mu.Unlock()
	w.cond.Broadcast()
}

// over reports whether the walk has ended early (cancelled, or stopped by
// a callback's error), so a directory read in parts reads no more.
func (w *walker) over() bool {
	if err := w.ctx.Err(); err != nil {
		w.stop(err)
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stopped
}

// work is one worker: it takes directories from the stack until the walk
// is over, or, for an extra worker (Options.IOWorkers), until the stack is
// empty or its visits are fast again.
func (w *walker) work(extra bool) {
	var l frd.Lister
	l.Names = w.opts.Names
	l.ReuseNames = w.opts.Reuse
	l.FastStats = w.opts.FastStats
	ps := newPartState(w)
	var entries []frd.Entry
	normal := false
	defer func() {
		if !normal {
			w.abort(recover())
		}
	}()
	var run visitRun
	for {
		n := w.take(extra)
		if n == nil {
			normal = true
			return
		}
		var start time.Time
		if w.ioMax > 0 {
			start = time.Now()
			ps.listed = 0
		}
		entries = w.visit(&l, ps, entries, n)

		w.mu.Lock()
		w.busy--
		done := w.busy == 0 && len(w.stack) == 0
		w.mu.Unlock()
		if done {
			w.cond.Broadcast()
		}
		if w.ioMax > 0 && w.counted(&run, extra, time.Since(start), ps.listed) {
			normal = true
			return
		}
	}
}

// visitRun is a worker's count of its visits in a row that waited on the
// disk (cold) and, for an extra worker, of those that did not (fast).
type visitRun struct{ cold, fast int }

// counted counts a visit that took d and listed entries: a base worker
// starts an extra one after coldToStart cold visits in a row (one slow
// visit may be a goroutine descheduled: a few in a row are the disk), and
// an extra worker ends, it reports, after ioFastToEnd fast ones.
func (w *walker) counted(r *visitRun, extra bool, d time.Duration, entries int) (end bool) {
	if coldVisit(d, entries) {
		r.cold, r.fast = r.cold+1, 0
		if !extra && r.cold >= coldToStart {
			w.addIOWorker()
		}
		return false
	}
	r.cold = 0
	if extra {
		r.fast++
	}
	return r.fast >= ioFastToEnd
}

// take returns the next directory to visit, counted busy, or nil when the
// walk is over; an extra worker does not wait for one.
func (w *walker) take(extra bool) *node {
	w.mu.Lock()
	for !extra && len(w.stack) == 0 && w.busy > 0 && !w.stopped {
		w.cond.Wait()
	}
	if w.stopped || len(w.stack) == 0 {
		w.mu.Unlock()
		w.cond.Broadcast()
		return nil
	}
	n := w.stack[len(w.stack)-1]
	w.stack[len(w.stack)-1] = nil
	w.stack = w.stack[:len(w.stack)-1]
	w.busy++
	w.mu.Unlock()
	return n
}

// Extra workers (Options.IOWorkers): a visit is taken as waiting on the
// disk when it takes over coldBase plus coldPerEntry per entry listed, far
// above a cached listing's cost and below one read from a disk; a worker
// starts one after coldToStart such visits in a row, and an extra worker
// ends after ioFastToEnd fast visits in a row.
const (
	coldBase     = 100 * time.Microsecond
	coldPerEntry = 5 * time.Microsecond
	coldToStart  = 3
	ioFastToEnd  = 8
)

func coldVisit(d time.Duration, entries int) bool {
	return d > coldBase+time.Duration(entries)*coldPerEntry
}

// addIOWorker starts an extra worker if the budget allows and there is a
// directory waiting for it.
func (w *walker) addIOWorker() {
	w.mu.Lock()
	ok := w.ioActive < w.ioMax && len(w.stack) > 0 && !w.stopped
	if ok {
		w.ioActive++
		w.wg.Add(1) // this worker is counted: the count is not zero
	}
	w.mu.Unlock()
	if ok {
		w.notifyIOHook()
		go func() {
			defer w.wg.Done()
			defer w.endIOWorker()
			w.work(true)
		}()
	}
}

// endIOWorker counts an extra worker ended, however it ended.
func (w *walker) endIOWorker() {
	w.mu.Lock()
	w.ioActive--
	w.mu.Unlock()
	w.notifyIOHook()
}

// notifyIOHook wakes runIOHook, if it runs, to pass on the new count.
func (w *walker) notifyIOHook() {
	if w.ioNotify != nil {
		select {
		case w.ioNotify <- struct{}{}:
		default: // a wake is pending: it will read the newest count
		}
	}
}

// runIOHook calls Options.OnIOWorkers, on a goroutine of its own so that
// a worker never waits for it, with the count of extra workers each time
// it is woken and the count changed, until stop is closed and the last
// count is passed on. A panic or Goexit in the hook ends the walk as one
// in a DirFunc does.
func (w *walker) runIOHook(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	normal := false
	defer func() {
		if !normal {
			w.raise(recover())
		}
	}()
	last := 0
	pass := func() {
		w.mu.Lock()
		running := w.ioActive
		w.mu.Unlock()
		if running != last {
			last = running
			w.opts.OnIOWorkers(running)
		}
	}
	for {
		select {
		case <-w.ioNotify:
			pass()
		case <-stop:
			pass()
			normal = true
			return
		}
	}
}

// raise ends the walk for a callback that panicked with p, or called
// runtime.Goexit (p nil), so that Dirs raises the first such again.
func (w *walker) raise(p any) {
	w.mu.Lock()
	if w.panicked == nil && !w.goexit {
		if p != nil {
			w.panicked = p
		} else {
			w.goexit = true
		}
	}
	w.stopped = true
	w.mu.Unlock()
	w.cond.Broadcast()
}

// abort ends the walk from a worker whose callback panicked with p, or
// called runtime.Goexit (p nil), so that Dirs raises it again.
func (w *walker) abort(p any) {
	w.mu.Lock()
	w.busy--
	w.mu.Unlock()
	w.raise(p)
}

// report hands err to OnError, or keeps the first; it returns false when
// the walk must end.
func (w *walker) report(d *Dir, path string, depth int, err error) bool {
	e := &Error{Path: path, Depth: depth, Err: err, Dir: d}
	if w.opts.OnError == nil {
		if w.opts.Reuse {
			e.Dir = nil // its storage will be reused before Dirs returns
		}
		w.mu.Lock()
		if w.first == nil {
			w.first = e
		}
		w.mu.Unlock()
		return true
	}
	if rerr := w.opts.OnError(e); rerr != nil {
		w.stop(rerr)
		return false
	}
	return true
}

// visit opens, lists and reports the directory n, and queues its
// subdirectories. It returns the listing's storage for reuse. The
// descriptor is closed on every way out, a callback's panic included,
// unless it is kept for the subdirectories.
func (w *walker) visit(l *frd.Lister, ps *partState, entries []frd.Entry, n *node) []frd.Entry {
	if err := w.ctx.Err(); err != nil {
		w.stop(err)
		return entries
	}
	d := &n.dir
	fd, err := w.open(n)
	if err != nil {
		if n.parent == nil || !errors.Is(err, fs.ErrNotExist) {
			w.report(d, d.Path, d.Depth, err)
		} // else removed since its parent was listed: left out
		w.finish(n)
		return entries
	}
	kept := false
	defer func() {
		// Touch only locals here: once finished, n may be reused.
		if !kept {
			closeHandle(fd)
		}
	}()
	if !w.enter(n, fd) {
		w.finish(n)
		return entries
	}
	if w.opts.Batches && !w.opts.Sorted {
		entries, kept = w.visitBatches(l, ps, entries, n, fd)
		return entries
	}
	entries, ok := w.list(l, ps, entries[:0], n, fd)
	if !ok {
		return entries
	}
	d.Entries = entries
	d.fd = fd
	n.visited = true
	ferr := w.fn(d)
	left := d.Entries // the DirFunc may have removed entries
	d.Entries, d.fd = nil, noHandle
	if ferr != nil && ferr != fs.SkipDir {
		w.stop(ferr)
		return entries[:0]
	}

	var subdirs []*node
	if ferr == nil && w.descends(d) {
		subdirs = w.subdirs(n, fd, left)
	}
	kept = w.queue(n, fd, subdirs)
	return entries[:0]
}

// descends reports whether d's subdirectories are walked, by MaxDepth.
func (w *walker) descends(d *Dir) bool {
	return w.opts.MaxDepth <= 0 || d.Depth < w.opts.MaxDepth
}

// queue queues n's subdirectories, keeping n's descriptor for them if the
// budget allows (it reports whether it did), and finishes n's own visit.
func (w *walker) queue(n *node, fd handle, subdirs []*node) (kept bool) {
	if len(subdirs) > 0 {
		n.hasSubs = true
		n.unopened.Store(int32(len(subdirs)))
		n.remaining.Add(int32(len(subdirs)))
		// Beyond the budget its subdirectories are found again from an
		// open ancestor; the root is always kept.
		kept = w.fds.Keep(&n.fdn, fd, n.parent == nil)
		w.push(subdirs)
	}
	w.finish(n)
	return kept
}

// visitBatches is visit's listing under Options.Batches: a DirFunc call
// per part, the subdirectories queued once the directory is read.
func (w *walker) visitBatches(l *frd.Lister, ps *partState, entries []frd.Entry, n *node, fd handle) ([]frd.Entry, bool) {
	d := &n.dir
	var subdirs []*node
	for batch := 0; ; batch++ {
		if batch > 0 && w.over() {
			return entries[:0], false
		}
		part, done, ok := w.listPart(l, ps, entries[:0], n, fd)
		entries = part
		if !ok {
			return entries[:0], false
		}
		d.Entries, d.fd, d.Batch, d.More = part, fd, batch, !done
		n.visited = true
		ferr := w.fn(d)
		left := d.Entries
		d.Entries, d.fd = nil, noHandle
		if ferr != nil && ferr != fs.SkipDir {
			w.stop(ferr)
			return entries[:0], false
		}
		if ferr == fs.SkipDir {
			subdirs = nil // none walked, and no more read
			break
		}
		if w.descends(d) {
			subdirs = append(subdirs, w.subdirs(n, fd, left)...)
		}
		if done {
			break
		}
	}
	return entries[:0], w.queue(n, fd, subdirs)
}

// listPart reads one part of the open directory n: one kernel buffer,
// its regular files stat'ed as frd lists them (unless Names), or for a
// directory over SplitDirSize its names first and then the stats across
// the workers. An entry whose stat fails is reported and left out, the
// rest kept (frd's Lister.Failed), as listEach does for a whole listing.
// ok is false when OnError ended the walk.
func (w *walker) listPart(l *frd.Lister, ps *partState, dst []frd.Entry, n *node, fd handle) (part []frd.Entry, done, ok bool) {
	d := &n.dir
	ps.d, ps.errs = d, ps.errs[:0]
	if w.opts.ReportVanished {
		l.Vanished = ps.vanishedFn
		defer func() { l.Vanished = nil }()
	}
	names := w.opts.Names
	split := !names && w.splitAt > 0 && d.Info.Size >= w.splitAt && w.opts.Workers > 1
	l.Names, l.Failed = names || split, ps.failedFn
	part, done, err := listPartHandle(l, dst, fd, d.Path)
	l.Names, l.Failed = names, nil
	ps.listed += len(part)
	errs := ps.errs
	if err != nil {
		d.Err = err
		errs = append(errs, err)
		done = true // the rest cannot be read
	}
	if split {
		var more []error
		part, more = w.statSplit(l, part, fd, d.Path)
		errs = append(errs, more...)
	}
	for _, err := range errs {
		if !w.report(d, errPath(err, d.Path), d.Depth, err) {
			return part, done, false
		}
	}
	part, ok = w.finishListing(n, fd, part)
	return part, done, ok
}

// partState is a worker's for the directory or part it reads: the
// callbacks frd calls, made once per worker rather than once per listing.
type partState struct {
	w          *walker
	d          *Dir
	listed     int // entries listed in this visit, for Options.IOWorkers
	errs       []error
	vanishedFn func(name string)
	failedFn   func(err error)
}

func newPartState(w *walker) *partState {
	ps := &partState{w: w}
	ps.vanishedFn, ps.failedFn = ps.vanished, ps.failed
	return ps
}

func (ps *partState) vanished(name string) {
	p := joinPath(ps.d.Path, name)
	ps.w.report(ps.d, p, ps.d.Depth, &os.PathError{Op: "stat", Path: p, Err: syscall.ENOENT})
}

func (ps *partState) failed(err error) { ps.errs = append(ps.errs, err) }

// statEach stats the regular files of entries, leaving out and returning
// the errors of those that fail (and leaving out those gone).
func statEach(l *frd.Lister, entries []frd.Entry, fd handle, path string) ([]frd.Entry, []error) {
	var errs []error
	l.Failed = func(err error) { errs = append(errs, err) }
	kept, err := statEntries(l, entries, fd, path)
	l.Failed = nil
	if err != nil {
		errs = append(errs, err)
	}
	return kept, errs
}

// statSplit is statEach across Workers goroutines, each with a Lister of
// its own, the part kept in its order.
func (w *walker) statSplit(l *frd.Lister, entries []frd.Entry, fd handle, path string) ([]frd.Entry, []error) {
	k := w.opts.Workers
	chunk := (len(entries) + k - 1) / k
	if chunk == 0 {
		return entries, nil
	}
	parts := make([][]frd.Entry, k)
	errs := make([][]error, k)
	var wg sync.WaitGroup
	for i := 1; i < k; i++ {
		lo, hi := min(i*chunk, len(entries)), min((i+1)*chunk, len(entries))
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := frd.Lister{Vanished: l.Vanished}
			parts[i], errs[i] = statEach(&own, entries[lo:hi], fd, path)
		}()
	}
	parts[0], errs[0] = statEach(l, entries[:min(chunk, len(entries))], fd, path)
	wg.Wait()
	n := 0
	var all []error
	for i, p := range parts {
		n += copy(entries[n:], p)
		all = append(all, errs[i]...)
	}
	return entries[:n], all
}

// enter stats the open directory n and decides whether to list it: not
// when it is on another file system under OneFileSystem, or is one of its
// own ancestors.
func (w *walker) enter(n *node, fd handle) bool {
	d := &n.dir
	info, dev, ino, err := statHandle(fd)
	if err != nil {
		w.report(d, d.Path, d.Depth, err)
		return false
	}
	info.Name = filepath.Base(d.Path)
	d.Info, n.dev, n.ino = info, dev, ino
	switch {
	case n.parent == nil:
		w.rootDev = dev
	case w.opts.OneFileSystem && dev != w.rootDev:
		return false
	case n.isLoop():
		w.report(d, d.Path, d.Depth, ErrLoop)
		return false
	}
	return true
}

// list lists the open directory n as the options ask, reporting what
// fails. It returns false when OnError ended the walk.
func (w *walker) list(l *frd.Lister, ps *partState, entries []frd.Entry, n *node, fd handle) ([]frd.Entry, bool) {
	d := &n.dir
	var err error
	if w.opts.ReportVanished {
		ps.d = d
		l.Vanished = ps.vanishedFn
		defer func() { l.Vanished = nil }()
	}
	if w.splitAt > 0 && d.Info.Size >= w.splitAt {
		entries, err = w.listSplit(l, entries, fd, d.Path)
	} else {
		entries, err = listHandle(l, entries, fd, d.Path)
	}
	if err != nil && !w.opts.Names && errPath(err, d.Path) != d.Path {
		// An entry could not be stat'ed (a directory that may be read but
		// not searched fails every one): list it again by names and stat
		// each entry on its own, reporting every failure and keeping the
		// rest, as du does.
		var ok bool
		if entries, ok, err = w.listEach(l, entries[:0], fd, d); !ok {
			return entries, false
		}
	}
	if err != nil {
		d.Err = err
		if !w.report(d, errPath(err, d.Path), d.Depth, err) {
			return entries, false
		}
	}
	ps.listed += len(entries)
	return w.finishListing(n, fd, entries)
}

// finishListing stats what StatAll asks of a listing, drops the hard links
// seen before under HardLinksOnce, and sorts under Sorted. It returns false
// when OnError ended the walk.
func (w *walker) finishListing(n *node, fd handle, entries []frd.Entry) ([]frd.Entry, bool) {
	d := &n.dir
	if w.opts.StatAll {
		k := 0 // entries kept; they move down only after one is left out
		for i := range entries {
			e := &entries[i]
			if !e.Type.IsRegular() && !e.Type.IsDir() {
				if err := w.statEntry(n, fd, e); err != nil {
					if !w.report(d, joinPath(d.Path, e.Name), d.Depth, err) {
						return entries, false
					}
					continue // reported, and left out as listEach leaves one out
				}
			}
			if k != i {
				entries[k] = *e
			}
			k++
		}
		entries = entries[:k]
	}
	if w.links != nil {
		entries = slices.DeleteFunc(entries, func(e frd.Entry) bool {
			return e.Links > 1 && e.Type.IsRegular() && w.links.Seen(e.Device, e.FileID)
		})
	}
	if w.opts.Sorted {
		slices.SortFunc(entries, frd.CompareName)
	}
	return entries, true
}

// testHookSplitListed, set by tests, runs between a split directory's
// listing of names and their stats.
var testHookSplitListed func(path string)

// listSplit lists a huge directory by names, then stats its files on
// Workers goroutines at once, each with a Lister of its own.
func (w *walker) listSplit(l *frd.Lister, dst []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	l.Names = true
	dst, err := listHandle(l, dst, fd, path)
	l.Names = w.opts.Names
	if err != nil {
		return dst, err
	}
	if testHookSplitListed != nil {
		testHookSplitListed(path)
	}
	kept, errs := w.statSplit(l, dst, fd, path)
	if len(errs) > 0 {
		return kept, errs[0] // list lists it again entry by entry, reporting each
	}
	return kept, nil
}

// listEach lists the directory d, open as fd, from its start by names,
// then stats each entry on its own: a regular file for its metadata, and
// under StatAll any other entry to know that it can be. Each entry that
// fails is reported and left out. It returns false when OnError ended the
// walk, and an error when even the names could not be read.
func (w *walker) listEach(l *frd.Lister, dst []frd.Entry, fd handle, d *Dir) ([]frd.Entry, bool, error) {
	l.Names, l.Rewind = true, true
	dst, err := listHandle(l, dst, fd, d.Path)
	l.Names, l.Rewind = w.opts.Names, false
	if err != nil {
		return dst, true, err
	}
	n := 0
	for i := range dst {
		e := dst[i]
		switch {
		case e.Type.IsRegular():
			var one []frd.Entry
			one, err = statEntries(l, dst[i:i+1], fd, d.Path)
			if err == nil && len(one) == 0 {
				continue // removed since the listing
			}
			if err == nil {
				e = one[0]
			}
		case w.opts.StatAll:
			err = lstatAt(fd, d.Path, e.Name)
		}
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if l.Vanished != nil && !e.Type.IsRegular() {
					l.Vanished(e.Name) // a regular file's Stat told it already
				}
				continue
			}
			if !w.report(d, joinPath(d.Path, e.Name), d.Depth, err) {
				return dst[:n], false, nil
			}
			continue
		}
		dst[n] = e
		n++
	}
	return dst[:n], true, nil
}

// statEntry fills e's metadata under StatAll: through a symbolic link
// under FollowSymlinks, unless the path from the root would then lead
// through more links than the kernel resolves in one path (du, which
// opens such paths whole, cannot stat it either).
func (w *walker) statEntry(n *node, fd handle, e *frd.Entry) error {
	if w.opts.FollowSymlinks && e.Type&fs.ModeSymlink != 0 && n.links >= maxSymlinks {
		return tooManyLinks(joinPath(n.dir.Path, e.Name))
	}
	return statOther(fd, n.dir.Path, e, w.opts.FollowSymlinks)
}

func tooManyLinks(path string) error {
	return &os.PathError{Op: "stat", Path: path, Err: errTooManyLinks}
}

// subdirs makes a node for each directory among entries, the listing of n
// open as fd: each directory, and under FollowSymlinks each symbolic link
// that leads to one.
func (w *walker) subdirs(n *node, fd handle, entries []frd.Entry) []*node {
	var subs []*node
	for _, e := range entries {
		follow := false
		switch {
		case e.Type&fs.ModeSymlink != 0:
			if !w.opts.FollowSymlinks {
				continue
			}
			// Under StatAll the link's type bits already say what it
			// leads to; otherwise ask.
			if e.Type&fs.ModeDir == 0 && (w.opts.StatAll || !isDirAt(fd, e.Name, joinPath(n.dir.Path, e.Name))) {
				continue
			}
			if n.links >= maxSymlinks { // StatAll has left it out already
				path := joinPath(n.dir.Path, e.Name)
				w.report(&n.dir, path, n.dir.Depth, tooManyLinks(path))
				continue
			}
			follow = true
		case !e.Type.IsDir():
			continue
		}
		c := w.newNode()
		c.parent = n
		c.fdn = fdNode{Parent: &n.fdn, Name: strings.Clone(e.Name), Follow: follow}
		c.links = n.links
		if follow {
			c.links++
		}
		c.dir = Dir{Path: joinPath(n.dir.Path, c.fdn.Name), Depth: n.dir.Depth + 1, Parent: &n.dir, fd: noHandle}
		c.remaining.Store(1)
		subs = append(subs, c)
	}
	return subs
}

// push queues subdirectories, the first of the listing to be taken first.
func (w *walker) push(subs []*node) {
	w.mu.Lock()
	for i := len(subs) - 1; i >= 0; i-- {
		w.stack = append(w.stack, subs[i])
	}
	w.mu.Unlock()
	if len(subs) == 1 {
		w.cond.Signal()
	} else {
		w.cond.Broadcast()
	}
}

// finish ends one piece of n's work: its own visit or a subdirectory's
// subtree. The last one runs Post for n and finishes n's share of its
// parent.
func (w *walker) finish(n *node) {
	for n != nil {
		if n.remaining.Add(-1) != 0 {
			return
		}
		if n.hasSubs && w.opts.DetectMoves && n.parent != nil && n.fdn.Moved(n.dir.Path, n.dev, n.ino, n.parent.dev, n.parent.ino) {
			err := &os.PathError{Op: "walk", Path: n.dir.Path, Err: ErrMoved}
			if !w.report(&n.dir, n.dir.Path, n.dir.Depth, err) {
				return
			}
		}
		if n.visited && w.opts.Post != nil {
			if err := w.opts.Post(&n.dir); err != nil {
				w.stop(err)
				return
			}
		}
		parent := n.parent
		if w.opts.Reuse && parent != nil {
			// Done: no subdirectory is left to read it through Parent,
			// and its descriptor was closed when the last one was opened.
			w.release(n)
		}
		n = parent
	}
}

// newNode returns a node for a subdirectory: one released under
// Options.Reuse, or a new one.
func (w *walker) newNode() *node {
	if w.opts.Reuse {
		w.freeMu.Lock()
		if k := len(w.free); k > 0 {
			n := w.free[k-1]
			w.free = w.free[:k-1]
			w.freeMu.Unlock()
			return n
		}
		w.freeMu.Unlock()
	}
	return new(node)
}

// release keeps a finished node for newNode.
func (w *walker) release(n *node) {
	*n = node{}
	w.freeMu.Lock()
	w.free = append(w.free, n)
	w.freeMu.Unlock()
}

// open opens n's directory: the root by its path, any other relative to
// its parent's descriptor, or found again from its nearest open ancestor
// when the parent's was not kept.
func (w *walker) open(n *node) (handle, error) {
	if n.parent == nil {
		if w.rootOpen != nil {
			return w.rootOpen()
		}
		return openRoot(n.dir.Path)
	}
	fd, err := n.fdn.Open(n.dir.Path)
	if p := n.parent; p.unopened.Add(-1) == 0 && p.parent != nil {
		// Every subdirectory of p is open: p's descriptor has done its job.
		w.fds.Close(&p.fdn)
	}
	return fd, err
}

// isLoop reports whether n is the same directory as one of its ancestors.
func (n *node) isLoop() bool {
	if n.ino == 0 {
		return false // a system without inode numbers
	}
	for a := n.parent; a != nil; a = a.parent {
		if a.dev == n.dev && a.ino == n.ino {
			return true
		}
	}
	return false
}

// joinPath joins a directory's path and an entry's name as the walk
// reports them: filepath.Join without cleaning the root as given.
func joinPath(dir, name string) string { return dirfd.Join(dir, name) }

// errPath is the path an error names: the entry's for an *os.PathError.
func errPath(err error, dir string) string {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path != "" {
		return pe.Path
	}
	return dir
}

// A LinkSet remembers files by (device, inode), for counting a file with
// several hard links once. It is safe for concurrent use and sharded, so
// that workers rarely wait on one another. The zero value is not ready:
// use NewLinkSet. Options.HardLinksOnce keeps one per walk; a program that
// counts across several walks, as du does across its arguments, keeps its
// own.
type LinkSet struct {
	shards [64]struct {
		mu   sync.Mutex
		seen map[[2]uint64]struct{}
		_    [40]byte // keep shards on separate cache lines
	}
}

// NewLinkSet returns an empty LinkSet.
func NewLinkSet() *LinkSet {
	s := new(LinkSet)
	for i := range s.shards {
		s.shards[i].seen = make(map[[2]uint64]struct{})
	}
	return s
}

// Seen records (dev, ino) and reports whether it was recorded before.
func (s *LinkSet) Seen(dev, ino uint64) bool {
	k := [2]uint64{dev, ino}
	h := (ino ^ dev*0x9e3779b97f4a7c15) * 0x9e3779b97f4a7c15
	sh := &s.shards[h>>58]
	sh.mu.Lock()
	_, ok := sh.seen[k]
	if !ok {
		sh.seen[k] = struct{}{}
	}
	sh.mu.Unlock()
	return ok
}
