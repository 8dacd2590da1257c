package dutree

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/walk"
)

// ScanOptions are what fdu's command line asks of a scan.
type ScanOptions struct {
	// Walk makes the walk's options (fdu's du.Config.WalkOptions), once
	// per scan, as its I/O hook counts one walk: the workers, and -x
	// (other file systems are marked OtherFS, not entered). The scan sets
	// what the tree needs itself: StatAll (the sizes of what is not a
	// regular file), Reuse and OnError. nil walks with walk's defaults.
	Walk     func() *walk.Options
	Exclude  func(path string) bool // --exclude: true leaves the entry out, marked Excluded
	Progress *Progress              // counted as the scan goes, for a progress display

	// Extended keeps each entry's owner, group and mode (ncdu's -e), at
	// the cost of a stat an entry: the listing's keeps none of them.
	Extended bool
	// ExcludeCaches leaves out, marked Excluded, each directory holding
	// a cache directory tag (CACHEDIR.TAG), as ncdu's --exclude-caches.
	ExcludeCaches bool
	// ExcludeKernFS leaves out, marked KernFS, each directory on a kernel
	// file system (proc, sysfs...), as ncdu's --exclude-kernfs (Linux).
	ExcludeKernFS bool
	// Ignore: true leaves out the entry at rel, its path below the root
	// with '/' between names (--ignore-from), marked Excluded.
	Ignore func(rel string, isDir bool) bool
}

// Progress is a scan's running count, safe to read while it runs.
type Progress struct {
	Entries atomic.Int64
	Bytes   atomic.Int64 // disk usage seen so far
	Current atomic.Pointer[string]
}

// Error is a path that could not be read, and why.
type Error struct {
	Path string
	Err  error
}

// Scan walks root and returns its tree, counted. The errors are those the
// walk met (each entry concerned is marked ReadError); a nil tree means
// root itself could not be read. A scan stopped by ctx once root was
// listed keeps what it read: the tree is Incomplete, each directory it
// did not list marked Unfinished, and the error nil.
func Scan(ctx context.Context, root string, o ScanOptions) (*Tree, []Error, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	if st, err := os.Stat(root); err != nil {
		return nil, nil, err
	} else if !st.IsDir() {
		return nil, nil, &fs.PathError{Op: "scan", Path: root, Err: syscall.ENOTDIR}
	}
	t := &Tree{Top: &Dir{}, Path: abs, Given: root, Extended: o.Extended}
	errs, read, err := scanInto(ctx, root, t.Top, o, &t.FollowLinks)
	if err != nil && (ctx.Err() == nil || !read) {
		return nil, errs, err
	}
	t.Incomplete = err != nil // until Recount finds nothing Unfinished
	t.Recount()
	return t, errs, nil
}

// Rescan scans the directory n again, at path, replacing what n held; the
// caller runs Recount. The directory must still be the one scanned (the
// same device and inode; one Unfinished has none, and must be a directory
// at path, not a link to one unless the scan follows links), or the tree
// is left as it was, as it is when ctx stops the rescan.
func Rescan(ctx context.Context, path string, n *Node, o ScanOptions) ([]Error, error) {
	// One never listed was never identified: nothing to compare with but,
	// under -x, its device, its parent's unless the listing gave its own.
	// A stopped scan leaves a mount Unfinished: it is another file
	// system's, not to be scanned into the tree.
	unlisted := n.Dir.own.flags&Unfinished != 0 && n.Dir.own.ino == 0
	var walkOpts walk.Options
	if o.Walk != nil {
		walkOpts = *o.Walk()
	}
	// What is at its path now, not followed unless the scan follows
	// links: the directory the rescan must read (the walk follows a
	// root that is a link), so that a link put in its place is refused.
	var now Dir
	if unlisted {
		st, err := os.Lstat(path)
		if err == nil && walkOpts.FollowSymlinks {
			st, err = os.Stat(path)
		}
		switch {
		case err != nil:
			return nil, err
		case !st.IsDir():
			return nil, &fs.PathError{Op: "rescan", Path: path, Err: syscall.ENOTDIR}
		}
		fillStat(st, &now) // nothing where there is no device to fill
		if walkOpts.OneFileSystem && now.Dev != 0 && now.Dev != n.Dir.Dev {
			return nil, errOtherFS(path)
		}
	}
	fresh := &Dir{}
	var follow bool
	errs, _, err := scanInto(ctx, path, fresh, o, &follow)
	if err != nil {
		return errs, err
	}
	if unlisted && walkOpts.OneFileSystem && fresh.Dev != n.Dir.Dev {
		return errs, errOtherFS(path)
	}
	want, check := n.Dir, !unlisted
	if unlisted {
		want, check = &now, now.own.ino != 0
	}
	if check && (fresh.own.ino != want.own.ino || fresh.Dev != want.Dev) {
		return errs, &fs.PathError{Op: "rescan", Path: path, Err: errors.New("not the directory scanned before (moved or replaced)")}
	}
	*n.Dir = *fresh
	return errs, nil
}

func errOtherFS(path string) error {
	return &fs.PathError{Op: "rescan", Path: path, Err: errors.New("on another file system (-x)")}
}

// scanner is one scan's shared state.
type scanner struct {
	o       ScanOptions
	top     *Dir
	rootLen int // len(root path): what precedes the names below it

	// started is when the scan began, before any directory was listed:
	// each Dir's Scanned.
	started int64

	mu    sync.Mutex
	errs  []Error
	loops []string // the links to an ancestor met under follow

	kernfs kernfsCache         // each device's answer, under ExcludeKernFS
	follow bool                // the walk follows symbolic links (-L)
	dirsMu sync.Mutex          // guards dirs
	dirs   map[frd.ID]struct{} // under follow, each directory listed
}

// listed marks, during a scan, each directory whose listing it has: the
// others under -x are on another file system.
const listed Flags = 1 << 15

// scanInto scans root into top; read is whether it listed root, which a
// scan that failed or was stopped may have. It sets *follow to whether
// the walk followed symbolic links.
func scanInto(ctx context.Context, root string, top *Dir, o ScanOptions, follow *bool) (errs []Error, read bool, err error) {
	s := &scanner{o: o, top: top, rootLen: len(root), started: scanClock()}
	top.Scanned = s.started
	opts := new(walk.Options)
	if o.Walk != nil {
		opts = o.Walk()
	}
	// What the tree needs of any walk: every entry's metadata, and no
	// Dir or name kept (the tree copies the names).
	opts.StatAll, opts.Reuse, opts.OnError = true, true, s.onError
	if s.follow, *follow = opts.FollowSymlinks, opts.FollowSymlinks; s.follow {
		s.dirs = map[frd.ID]struct{}{}
	}
	if skipped := opts.Skipped; opts.OneFileSystem {
		opts.Skipped = func(d *walk.Dir) {
			s.skipped(d)
			if skipped != nil {
				skipped(d)
			}
		}
	}
	err = walk.Dirs(ctx, root, opts, s.dir)
	if !s.listedRoot() {
		// The walk goes on past the root's error, which onError took:
		// a root that could not be read is the scan's failure.
		if err == nil {
			err = s.takeRootErr()
		}
		return s.errs, false, err
	}
	s.markErrors()
	unlist(top, opts.OneFileSystem, ctx.Err() != nil)
	return s.errs, true, ctx.Err()
}

func (s *scanner) listedRoot() bool { return s.top.own.flags&listed != 0 }

// takeRootErr takes the walk's error for the root itself out of the
// errors met, to be the scan's; if the walk gave none for a root it did
// not list, it is one saying so.
func (s *scanner) takeRootErr() error {
	for i, e := range s.errs {
		if len(s.namesOf(e.Path)) == 0 {
			s.errs = slices.Delete(s.errs, i, i+1)
			return e.Err
		}
	}
	return errors.New("root not listed")
}

// skipped keeps the device of a subdirectory the walk did not enter when
// it knows it (one on another file system under -x): unlist tells those
// from the others never listed, one removed meanwhile or not reached, by
// their device, their parent's until then.
func (s *scanner) skipped(d *walk.Dir) {
	if d.Info.Device == 0 || d.Parent == nil {
		return
	}
	if p, ok := d.Parent.Data.(*scanDir); ok {
		if n := p.take(filepath.Base(d.Path)); n != nil {
			n.Dev = d.Info.Device
		}
	}
}

// scanDir is a directory being scanned: its Dir, and the Dirs of its
// subdirectories until each one's listing takes it (siblings are listed
// at once on several workers).
type scanDir struct {
	dir     *Dir
	mu      sync.Mutex
	pending map[string]*Dir
}

// take is the Dir of d's subdirectory name.
func (p *scanDir) take(name string) *Dir {
	p.mu.Lock()
	defer p.mu.Unlock()
	sub, ok := p.pending[name]
	if !ok {
		return nil
	}
	delete(p.pending, name)
	return sub
}

// packers are the listing workers' buffers.
var packers = sync.Pool{New: func() any { return new(packer) }}

// dir keeps one directory's listing in its Dir.
func (s *scanner) dir(d *walk.Dir) error {
	n := s.top
	if d.Parent != nil {
		if n = d.Parent.Data.(*scanDir).take(filepath.Base(d.Path)); n == nil {
			return fs.SkipDir // cannot happen: the parent listed it
		}
	}
	sd := &scanDir{dir: n}
	d.Data = sd
	in := d.Info
	n.own = own{asize: in.Size, dsize: in.Allocated, ino: in.FileID, mtime: seconds(in.ModTimeNanos), nlink: uint32(min(in.Links, 1<<32-1)), flags: listed}
	n.Dev = in.Device
	if d.Err != nil {
		n.own.flags |= ReadError
	}
	if s.o.Extended && d.Parent == nil {
		e, _ := extAt(int(d.Fd()), "", false)
		n.setOwnExt(e)
	}
	if s.follow && !s.firstVisit(frd.ID{Dev: in.Device, Ino: in.FileID}) {
		// Reached again through another link: counted once, at the
		// first, its own size too, as du -L counts it.
		n.own.flags |= HardLink
		n.own.asize, n.own.dsize = 0, 0
		d.Entries = d.Entries[:0]
		return nil
	}
	p := packers.Get().(*packer)
	defer packers.Put(p)
	p.reset()
	p.ext = s.o.Extended
	var bytes int64
	keep := d.Entries[:0]
	for i := range d.Entries {
		e := &d.Entries[i]
		k := node(e, s.follow)
		if s.o.Extended {
			k.Ext, _ = extAt(int(d.Fd()), e.Name, s.follow && e.Type&fs.ModeSymlink != 0)
		}
		if skip := s.skip(d, e); skip != 0 {
			k = Node{Name: k.Name, Ino: k.Ino, Flags: skip, Nlink: 1, Ext: k.Ext} // the inode, to delete it by
			if e.Type.IsDir() {
				k.Flags |= wasDir
			}
		} else if e.Type.IsDir() {
			k.Dir = &Dir{Scanned: s.started, Dev: cmp.Or(e.Device, in.Device)} // its listing's, unless never listed
			keep = append(keep, *e)
			if sd.pending == nil {
				sd.pending = map[string]*Dir{}
			}
			sd.pending[strings.Clone(e.Name)] = k.Dir
		}
		bytes += k.Dsize
		p.add(&k)
	}
	d.Entries = keep
	p.into(n)
	if pr := s.o.Progress; pr != nil {
		pr.Entries.Add(int64(len(d.Entries)))
		pr.Bytes.Add(bytes + n.own.dsize)
		path := strings.Clone(d.Path)
		pr.Current.Store(&path)
	}
	return nil
}

// skip is the flags that leave e, an entry of d, out of the scan, or 0.
func (s *scanner) skip(d *walk.Dir, e *frd.Entry) Flags {
	if s.o.Exclude != nil && s.o.Exclude(childPath(d.Path, e.Name)) {
		return Excluded
	}
	if s.o.Ignore != nil && s.o.Ignore(strings.TrimLeft(childPath(d.Path, e.Name)[s.rootLen:], "/"), e.Type.IsDir()) {
		return Excluded
	}
	if !e.Type.IsDir() {
		return 0
	}
	// A kernel file system is a mount of its own: only a directory on
	// another device than its parent's can be one.
	if s.o.ExcludeKernFS && (e.Device == 0 || e.Device != d.Info.Device) && s.kernfs.is(int(d.Fd()), e.Name, e.Device) {
		return KernFS
	}
	if s.o.ExcludeCaches && cacheDirTagged(int(d.Fd()), e.Name) {
		return Excluded
	}
	return 0
}

// firstVisit reports whether the directory id is met for the first time.
func (s *scanner) firstVisit(id frd.ID) bool {
	s.dirsMu.Lock()
	defer s.dirsMu.Unlock()
	if _, ok := s.dirs[id]; ok {
		return false
	}
	s.dirs[id] = struct{}{}
	return true
}

// node is e as an entry of the tree (its name e's, to be copied). Under
// follow every link listed was followed (a dangling one is left out by
// the walk) and carries its target's metadata: it is shown as its target.
func node(e *frd.Entry, follow bool) Node {
	k := Node{Name: e.Name, Asize: e.Size, Dsize: e.Allocated, Ino: e.FileID, Mtime: seconds(e.ModTimeNanos)}
	k.Nlink = uint32(min(e.Links, 1<<32-1))
	t := e.Type
	if follow {
		t &^= fs.ModeSymlink
	}
	switch {
	case t&fs.ModeSymlink != 0:
		k.Flags |= Symlink | NotReg
	case t.IsDir():
	case !t.IsRegular():
		k.Flags |= NotReg
	case e.Links > 1:
		k.Flags |= HardLink
	}
	if e.Type.IsDir() {
		k.Asize, k.Dsize = 0, 0 // the directory's own, from its stat
	}
	return k
}

func seconds(ns int64) int64 {
	s := ns / 1e9
	if ns < 0 && ns%1e9 != 0 {
		s--
	}
	return s
}

func childPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// onError keeps each error for markErrors: under Reuse the walk's Dirs
// are not valid after it, and the nodes are the listing worker's.
func (s *scanner) onError(e *walk.Error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(e.Err, walk.ErrLoop) {
		// A link back to an ancestor under -L: counted there, as du
		// leaves a cycle out without a word.
		s.loops = append(s.loops, strings.Clone(e.Path))
		return nil
	}
	s.errs = append(s.errs, Error{Path: strings.Clone(e.Path), Err: e.Err})
	return nil
}

// markErrors marks the entry each error names (or, when it is not in the
// tree, as for a file the walk left out, its directory).
func (s *scanner) markErrors() {
	for _, path := range s.loops {
		if n := s.find(s.namesOf(path)); n != nil {
			n.SetFlags(n.Flags | HardLink | listed) // listed: not another file system's
		}
	}
	for _, e := range s.errs {
		names := s.namesOf(e.Path)
		if n := s.find(names); n != nil {
			n.SetFlags(n.Flags | ReadError)
			if n.Dir != nil && n.Flags&listed == 0 {
				statUnread(e.Path, n.Dir) // du counts its own size too
			}
		} else if len(names) > 0 {
			if n := s.find(names[:len(names)-1]); n != nil {
				n.SetFlags(n.Flags | ReadError)
			}
		}
	}
}

func (s *scanner) namesOf(path string) []string {
	if len(path) <= s.rootLen {
		return nil
	}
	return strings.Split(strings.Trim(path[s.rootLen:], "/"), "/")
}

func (s *scanner) find(names []string) *Node {
	root := s.top.node("")
	return findIn(&root, names)
}

// unlist clears the listed marks below d. A directory never listed and
// not failed is, under -x (otherFS), marked OtherFS and made an entry
// with nothing below when its device is not d's (known from its listing
// or from the walk, skipped); in a stopped scan, the others are marked
// Unfinished. It reads only the directories (subs, whose own flags are
// their entries'): decoding every file was a serial pass as long as the
// tree.
func unlist(d *Dir, otherFS, stopped bool) {
	d.own.flags &^= listed
	if otherFS && slices.ContainsFunc(d.subs, func(sub *Dir) bool { return onOtherFS(d, sub) }) {
		otherFSEntries(d) // while the listed marks below are there to tell
	}
	for _, sub := range d.subs {
		switch f := sub.own.flags; {
		case f&listed != 0:
			unlist(sub, otherFS, stopped)
		case f&ReadError != 0:
		case stopped:
			sub.own.flags = f | Unfinished
		}
	}
}

// onOtherFS reports whether sub, a directory of d in a scan under -x, was
// left out as on another file system: never listed nor failed, and on
// another device (one removed before the walk reached it is on d's).
func onOtherFS(d, sub *Dir) bool {
	return sub.own.flags&(listed|ReadError) == 0 && sub.Dev != d.Dev
}

// otherFSEntries makes each directory of d on another file system
// (onOtherFS) an entry marked OtherFS, with nothing below.
func otherFSEntries(d *Dir) {
	kids := d.Entries()
	for i := range kids {
		if k := &kids[i]; k.Dir != nil && onOtherFS(d, k.Dir) {
			k.Flags |= OtherFS
			k.Dir = nil
		}
	}
	d.set(kids)
}

// statUnread fills the own size, inode, device and time of a directory
// that could not be opened, from a stat of its path.
func statUnread(path string, d *Dir) {
	st, err := os.Lstat(path)
	if err != nil {
		return
	}
	d.own.asize, d.own.mtime = st.Size(), st.ModTime().Unix()
	fillStat(st, d)
}
