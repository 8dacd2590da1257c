package walk

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/frd"
)

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
	rank    int32 // its place among its parent's subdirectories, under InOrder

	unopened  atomic.Int32 // subdirectories not opened yet
	remaining atomic.Int32 // this directory's own work and its unfinished subdirectories
	dev, ino  uint64
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
// its parent's descriptor, or, when the parent's was not kept, found again
// from a kept directory below the parent or its nearest open ancestor.
func (w *walker) open(n *node) (handle, error) {
	if n.parent == nil {
		if w.rootOpen != nil {
			return w.rootOpen()
		}
		return openRoot(n.dir.Path)
	}
	fd, err := w.fds.OpenNear(&n.fdn, n.dir.Path)
	// p's descriptor, kept, stays until p finishes (or makes way for a
	// deeper one's): siblings opened at once on other workers find
	// their parents from it through "..".
	n.parent.unopened.Add(-1)
	return fd, err
}

// pathOf builds n's path from the names up to the root. A directory
// holds its Path only during its visit and its Post, its name between
// them: a walk down a chain d levels deep then holds one path per worker
// rather than d of them, which a user who can make such a chain would
// otherwise turn into d²·NAME_MAX bytes of a root process's memory.
func pathOf(n *node) string {
	if n.parent == nil {
		return n.dir.Path
	}
	a, size := n, 0
	for ; a.parent != nil; a = a.parent {
		size += 1 + len(a.fdn.Name)
	}
	root := a.dir.Path
	if root == "" || os.IsPathSeparator(root[len(root)-1]) {
		size-- // no separator after the root (dirfd.Join's rule)
	}
	b := make([]byte, len(root)+size)
	i := len(b)
	for a := n; a.parent != nil; a = a.parent {
		i -= len(a.fdn.Name)
		copy(b[i:], a.fdn.Name)
		if i > len(root) {
			i--
			b[i] = filepath.Separator
		}
	}
	copy(b, root)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is never written again
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

// children makes a node for each directory among entries, the listing of
// n open as fd: each directory, and under FollowSymlinks each symbolic
// link that leads to one.
func (w *walker) children(n *node, fd handle, entries []frd.Entry) []*node {
	var subs []*node
	for _, e := range entries {
		follow := false
		switch {
		case e.Type&fs.ModeSymlink != 0:
			if !w.followed(n, fd, &e) {
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
		c.dir = Dir{Depth: n.dir.Depth + 1, Parent: &n.dir, fd: noHandle} // Path: pathOf, at its visit
		c.remaining.Store(1)
		subs = append(subs, c)
	}
	return subs
}

// followed reports whether the symbolic link e, in n open as fd, is
// walked: under FollowSymlinks, when it leads to a directory within the
// links a path may hold.
func (w *walker) followed(n *node, fd handle, e *frd.Entry) bool {
	if !w.opts.FollowSymlinks {
		return false
	}
	// Under StatAll the link's type bits already say what it leads to;
	// otherwise ask.
	if e.Type&fs.ModeDir == 0 && (w.opts.StatAll || !isDirAt(fd, n.dir.Path, e.Name)) {
		return false
	}
	if n.links >= maxSymlinks { // StatAll has left it out already
		path := joinPath(n.dir.Path, e.Name)
		w.report(&n.dir, path, n.dir.Depth, tooManyLinks(path))
		return false
	}
	return true
}
