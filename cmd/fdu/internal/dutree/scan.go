package dutree

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
// root itself could not be read.
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
	t := &Tree{Root: Node{Name: abs, Dir: &Dir{}}, Given: root}
	errs, err := scanInto(ctx, root, &t.Root, o)
	if err != nil {
		return nil, errs, err
	}
	t.Recount()
	return t, errs, nil
}

// Rescan scans the directory n again, at path, replacing what n held; the
// caller runs Recount. The directory must still be the one scanned (the
// same device and inode), or the tree is left as it was.
func Rescan(ctx context.Context, path string, n *Node, o ScanOptions) ([]Error, error) {
	fresh := Node{Name: n.Name, Dir: &Dir{}}
	errs, err := scanInto(ctx, path, &fresh, o)
	if err != nil {
		return errs, err
	}
	if fresh.Ino != n.Ino || fresh.Dir.Dev != n.Dir.Dev {
		return errs, &fs.PathError{Op: "rescan", Path: path, Err: errors.New("not the directory scanned before (moved or replaced)")}
	}
	*n.Dir = *fresh.Dir
	n.Asize, n.Dsize, n.Mtime, n.Flags = fresh.Asize, fresh.Dsize, fresh.Mtime, fresh.Flags
	return errs, nil
}

// scanner is one scan's shared state.
type scanner struct {
	o       ScanOptions
	top     *Node
	rootLen int // len(root path): what precedes the names below it

	// started is when the scan began, before any directory was listed:
	// each Dir's Scanned.
	started int64

	mu   sync.Mutex
	errs []Error
}

// listed marks, during a scan, each directory whose listing it has: the
// others under -x are on another file system.
const listed Flags = 1 << 15

func scanInto(ctx context.Context, root string, top *Node, o ScanOptions) ([]Error, error) {
	s := &scanner{o: o, top: top, rootLen: len(root), started: scanClock()}
	top.Dir.Scanned = s.started
	opts := new(walk.Options)
	if o.Walk != nil {
		opts = o.Walk()
	}
	// What the tree needs of any walk: every entry's metadata, and no
	// Dir or name kept (the tree copies the names).
	opts.StatAll, opts.Reuse, opts.OnError = true, true, s.onError
	err := walk.Dirs(ctx, root, opts, s.dir)
	if err != nil && !s.listedRoot() {
		return s.errs, err
	}
	s.markErrors()
	unlist(top, opts.OneFileSystem)
	return s.errs, ctx.Err()
}

func (s *scanner) listedRoot() bool { return s.top.Flags&listed != 0 }

// scanDir is a directory being scanned: its node, and where each of its
// subdirectories' nodes is until that subdirectory's listing takes it
// (siblings are listed at once on several workers).
type scanDir struct {
	node    *Node
	mu      sync.Mutex
	pending map[string]int // name -> index in node.Dir.Kids
}

// take is the node of d's subdirectory name.
func (p *scanDir) take(name string) *Node {
	p.mu.Lock()
	defer p.mu.Unlock()
	i, ok := p.pending[name]
	if !ok {
		return nil
	}
	delete(p.pending, name)
	return &p.node.Dir.Kids[i]
}

// dir keeps one directory's listing in its node.
func (s *scanner) dir(d *walk.Dir) error {
	n := s.top
	if d.Parent != nil {
		if n = d.Parent.Data.(*scanDir).take(filepath.Base(d.Path)); n == nil {
			return fs.SkipDir // cannot happen: the parent listed it
		}
	}
	sd := &scanDir{node: n}
	d.Data = sd
	n.Flags |= listed
	in := d.Info
	n.Asize, n.Dsize, n.Ino, n.Mtime = in.Size, in.Allocated, in.FileID, seconds(in.ModTimeNanos)
	n.Nlink = uint32(min(in.Links, 1<<32-1))
	n.Dir.Dev = in.Device
	if d.Err != nil {
		n.Flags |= ReadError
	}
	kids, names := make([]Node, 0, len(d.Entries)), 0
	for i := range d.Entries {
		names += len(d.Entries[i].Name)
	}
	arena := make([]byte, 0, names) // one allocation for the directory's names
	var bytes int64
	keep := d.Entries[:0]
	for i := range d.Entries {
		e := &d.Entries[i]
		start := len(arena)
		arena = append(arena, e.Name...)
		k := node(e, arena[start:])
		if s.o.Exclude != nil && s.o.Exclude(childPath(d.Path, e.Name)) {
			k = Node{Name: k.Name, Ino: k.Ino, Flags: Excluded} // the inode, to delete it by
			if e.Type.IsDir() {
				k.Flags |= wasDir
			}
		} else if e.Type.IsDir() {
			k.Dir = &Dir{Scanned: s.started}
			keep = append(keep, *e)
			if sd.pending == nil {
				sd.pending = map[string]int{}
			}
			sd.pending[k.Name] = len(kids)
		}
		bytes += k.Dsize
		kids = append(kids, k)
	}
	d.Entries = keep
	n.Dir.Kids = kids
	if p := s.o.Progress; p != nil {
		p.Entries.Add(int64(len(kids)))
		p.Bytes.Add(bytes + n.Dsize)
		path := strings.Clone(d.Path)
		p.Current.Store(&path)
	}
	return nil
}

// node is e as an entry of the tree, named name (e.Name, kept).
func node(e *frd.Entry, name []byte) Node {
	k := Node{Name: unsafeString(name), Asize: e.Size, Dsize: e.Allocated, Ino: e.FileID, Mtime: seconds(e.ModTimeNanos)}
	k.Nlink = uint32(min(e.Links, 1<<32-1))
	switch t := e.Type; {
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
	s.errs = append(s.errs, Error{Path: strings.Clone(e.Path), Err: e.Err})
	return nil
}

// markErrors marks the entry each error names (or, when it is not in the
// tree, as for a file the walk left out, its directory).
func (s *scanner) markErrors() {
	for _, e := range s.errs {
		names := s.namesOf(e.Path)
		if n := s.find(names); n != nil {
			n.Flags |= ReadError
			if n.Dir != nil && n.Flags&listed == 0 {
				statUnread(e.Path, n) // du counts its own size too
			}
		} else if len(names) > 0 {
			if n := s.find(names[:len(names)-1]); n != nil {
				n.Flags |= ReadError
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

func (s *scanner) find(names []string) *Node { return findIn(s.top, names) }

// unlist clears the listed marks below n; under -x (otherFS), a directory
// never listed and not failed is marked OtherFS and holds nothing.
func unlist(n *Node, otherFS bool) {
	n.Flags &^= listed
	for i := range n.Dir.Kids {
		k := &n.Dir.Kids[i]
		switch {
		case k.Dir == nil:
		case k.Flags&listed != 0:
			unlist(k, otherFS)
		case otherFS && k.Flags&ReadError == 0:
			k.Flags |= OtherFS
			k.Dir = nil
		}
	}
}

// statUnread fills the own size, inode, device and time of a directory
// that could not be opened, from a stat of its path.
func statUnread(path string, n *Node) {
	st, err := os.Lstat(path)
	if err != nil {
		return
	}
	n.Asize, n.Mtime = st.Size(), st.ModTime().Unix()
	fillStat(st, n)
}
