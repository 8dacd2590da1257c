package walk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"runtime"

	"github.com/pbednarcik/flexreaddir/frd"
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

	// Sorted passes each listing sorted by name, whole (Batches then has
	// no effect). With Workers set to 1 the whole walk is then the same on
	// every run: directories come depth first, in name order. (Not
	// filepath.WalkDir's order, which visits a subdirectory's tree between
	// its parent's entries.)
	Sorted bool

	// InOrder takes, of the directories waiting, the one a walk with one
	// worker would visit first: depth first, each listing in its order.
	// A caller that reads the tree in that order while it is walked (a
	// report printed as it goes) then finds it listed just ahead, where a
	// plain walk's workers may run a whole subtree ahead of it. It costs
	// a comparison of up to the depth a directory, times the log of those
	// waiting.
	InOrder bool

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
	// value never splits, and neither do a walk of one worker and one
	// under Names, which stats nothing.
	SplitDirSize int64

	// MaxOpenDirs bounds the directory descriptors the walk keeps open
	// from listing a directory until its subtree is done, to open its
	// subdirectories from and come back up through, besides the root's;
	// beyond it the one kept longest, nearest the top, is closed. 0 means
	// a quarter of RLIMIT_NOFILE's soft limit, at least 4 and at most
	// 1,024, and a negative value none (every directory is then found
	// again from the root, an open per level). See Dirs for the total.
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
	// over SplitDirSize are stat'ed across the workers. Sorted, which
	// needs the whole listing, turns it off.
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
	// directory with subdirectories, and, where its parent's descriptor
	// is no longer kept, an open of the parent through "..". Unix only:
	// the by-path walks of other systems do not check.
	DetectMoves bool

	// OnError, when set, is called for each error met on the way: a
	// directory that cannot be opened or listed, an entry that cannot be
	// stat'ed. Returning nil goes on; a non-nil error ends the walk and is
	// returned. Without OnError the walk goes on and returns the first
	// error it met.
	OnError func(err *Error) error

	// Skipped, when set, is called for each subdirectory kept in its
	// parent's listing that the walk does not visit: one that cannot be
	// opened (after OnError, if it is reported), a loop (likewise), one
	// removed before it was opened or on another file system under
	// OneFileSystem (both without a word; the latter's Info holds its
	// device, the former's none). A caller that waits for each
	// directory listed (a report printed as it goes) learns there that
	// none will come. Its Dir is valid during the call only; a panic in
	// it ends the walk.
	Skipped func(d *Dir)

	// Planned says the caller has already fitted this walk into
	// RLIMIT_NOFILE, with room for Workers workers and MaxOpenDirs kept
	// directories (tree's clone plans both of its trees at once): the walk
	// takes them as they are and starts no IOWorkers, rather than plan
	// them again within what the caller has reserved.
	Planned bool
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
	// ends, its Path as Dir.Path says.
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
	// Path is the root as given, joined with the names below it, during
	// the directory's own DirFunc, Post and OnError calls. A directory
	// with subdirectories drops it between its visit and its Post (a
	// Parent's Path is empty then), so that a walk down a deep tree holds
	// one path per worker rather than one per level.
	Path  string
	Depth int // 0 for the root
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
// parent's descriptor, never through a symbolic link it was not asked to
// follow. A parent whose descriptor was not kept is found again through
// ".." from a directory kept below it, as fts goes back up, or else from
// its nearest open ancestor down, each directory on the way checked (by
// device and inode) to be the one listed before, so that a tree deeper
// than the descriptors kept costs a few opens a directory, not one per
// level above it. The walk holds at most Options.MaxOpenDirs descriptors
// kept between listings, the root's, and one or two per worker, and one
// more while it goes back up; where RLIMIT_NOFILE leaves fewer
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
	release := w.plan()
	defer release()
	w.start(root)
	w.wait()
	return w.outcome()
}

// plan resolves the options into the walk's settings: its workers and
// descriptors within RLIMIT_NOFILE, how it lists, and what it keeps. It
// returns what gives the descriptors back.
func (w *walker) plan() (release func()) {
	o := &w.opts
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	var kept int
	o.Workers, w.ioMax, kept, release = plan(o.Planned, o.Workers, max(o.IOWorkers, 0), o.MaxOpenDirs)
	w.fds = newSet(kept)
	if o.HardLinksOnce {
		w.links = NewLinkSet()
	}
	switch w.splitAt = o.SplitDirSize; {
	case w.splitAt < 0 || o.Workers == 1 || o.Names:
		w.splitAt = 0
	case w.splitAt == 0:
		w.splitAt = DefaultSplitDirSize
	}
	w.inParts = o.Batches && !o.Sorted
	return release
}

// outcome is what Dirs returns, or raises again, once the walk is over.
func (w *walker) outcome() error {
	w.mu.Lock()
	w.ended = true
	why, first := w.why, w.first
	w.mu.Unlock()
	switch {
	case why.panicked != nil:
		panic(why.panicked)
	case why.goexit:
		runtime.Goexit()
	case errors.Is(why.err, fs.SkipAll):
		return nil
	case why.err != nil:
		return why.err
	}
	return first
}
