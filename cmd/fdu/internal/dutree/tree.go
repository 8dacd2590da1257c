package dutree

import (
	"math"
	"slices"
)

// Flags mark what a browser shows beside an entry, as ncdu's legend does.
type Flags uint16

const (
	ReadError  Flags = 1 << iota // a directory not read in full, or an entry not stat'ed
	ErrorBelow                   // a directory with a ReadError somewhere below (set by Recount)
	Excluded                     // left out by an --exclude pattern
	OtherFS                      // a directory on another file system, left out under -x
	KernFS                       // left out as a kernel file system (read from ncdu's files)
	Symlink                      // a symbolic link
	NotReg                       // neither a regular file nor a directory
	HardLink                     // a file with more than one link
	LinkSeen                     // a hard link whose file was counted at an earlier link (set by Recount)
)

// Node is one entry: a file, or a directory with its Dir.
type Node struct {
	Name  string
	Dir   *Dir  // nil for anything but a directory
	Asize int64 // apparent size (st_size); a directory's own
	Dsize int64 // disk usage (st_blocks*512); a directory's own
	Ino   uint64
	Mtime int64 // seconds since 1970; 0 when unknown
	Nlink uint32
	Flags Flags
}

// Dir is a directory's entries and what Recount adds up below it.
type Dir struct {
	Kids []Node
	Dev  uint64 // the device of the directory and of its files
	// Scanned is when the scan that listed the directory began, in ns
	// since 1970 (Linux: CLOCK_REALTIME_COARSE, the clock file times are
	// stamped from): an entry born since is not the one listed, even with
	// the inode listed. 0 for a tree read from a file.
	Scanned int64

	// Totals, the directory's own sizes included: each file counted once
	// however many links lead to it within the tree.
	Asize, Dsize int64
	Items        int64 // entries below, at every depth
	Newest       int64 // the latest Mtime below, the directory's own included
}

// Tree is a scan: its root's Name is the path scanned, made absolute.
type Tree struct {
	Root  Node
	Given string // the path scanned as given ("" when read from a file)

	// ours is, for each inode (device, inode) whose ctime a deletion
	// changed without removing it (a directory emptied of an entry, a file
	// with another link left), a time (ns) no earlier than that change:
	// where there is no birth time, a ctime up to it is not someone else's.
	ours map[[2]uint64]int64
}

// IsDir reports whether n is a directory.
func (n *Node) IsDir() bool { return n.Dir != nil }

// Size is n's size as the browser shows it: for a directory its total
// (each hard-linked file once), for a file its own, at every link.
func (n *Node) Size(apparent bool) int64 {
	switch {
	case n.Dir != nil && apparent:
		return n.Dir.Asize
	case n.Dir != nil:
		return n.Dir.Dsize
	case apparent:
		return n.Asize
	}
	return n.Dsize
}

// Items is the entries below n, at every depth (0 for a file).
func (n *Node) Items() int64 {
	if n.Dir == nil {
		return 0
	}
	return n.Dir.Items
}

// Newest is n's Mtime, or for a directory the latest below it.
func (n *Node) Newest() int64 {
	if n.Dir == nil {
		return n.Mtime
	}
	return n.Dir.Newest
}

// Recount sets every directory's totals and the LinkSeen and ErrorBelow
// marks, in one pass over the tree: a file with several links is counted
// at the first met in the tree's order (each directory's listing order),
// the same on every run over the same tree.
func (t *Tree) Recount() {
	seen := map[[2]uint64]struct{}{}
	if t.Root.Dir != nil {
		recount(&t.Root, seen)
	}
}

func recount(n *Node, seen map[[2]uint64]struct{}) {
	d := n.Dir
	d.Asize, d.Dsize, d.Items, d.Newest = n.Asize, n.Dsize, 0, n.Mtime
	n.Flags &^= ErrorBelow
	for i := range d.Kids {
		k := &d.Kids[i]
		d.Items++
		if k.Dir != nil {
			recount(k, seen)
			d.Asize, d.Dsize = sat(d.Asize, k.Dir.Asize), sat(d.Dsize, k.Dir.Dsize)
			d.Items += k.Dir.Items
			d.Newest = max(d.Newest, k.Dir.Newest)
			if k.Flags&(ReadError|ErrorBelow) != 0 {
				n.Flags |= ErrorBelow
			}
			continue
		}
		d.Newest = max(d.Newest, k.Mtime)
		if k.Flags&ReadError != 0 {
			n.Flags |= ErrorBelow
		}
		k.Flags &^= LinkSeen
		if k.Flags&HardLink != 0 {
			id := [2]uint64{d.Dev, k.Ino}
			if _, ok := seen[id]; ok {
				k.Flags |= LinkSeen
				continue
			}
			seen[id] = struct{}{}
		}
		d.Asize, d.Dsize = sat(d.Asize, k.Asize), sat(d.Dsize, k.Dsize)
	}
}

// sat is a+b for sizes (never negative), at most math.MaxInt64: a tree of
// sparse files can claim more than int64 holds.
func sat(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// Lookup is the entry of d named name, or nil: a search of its entries,
// which keep the listing's order (the browser sorts its own view).
func (d *Dir) Lookup(name string) *Node {
	if i := d.index(name); i >= 0 {
		return &d.Kids[i]
	}
	return nil
}

func (d *Dir) index(name string) int {
	for i := range d.Kids {
		if d.Kids[i].Name == name {
			return i
		}
	}
	return -1
}

// Remove takes the entry named name out of d, reporting whether it was
// there. The totals are Recount's to fix.
func (d *Dir) Remove(name string) bool {
	i := d.index(name)
	if i >= 0 {
		d.Kids = slices.Delete(d.Kids, i, i+1)
	}
	return i >= 0
}

// Find is the node at names below the root (nil when a name is missing
// or not a directory on the way).
func (t *Tree) Find(names []string) *Node { return findIn(&t.Root, names) }

func findIn(n *Node, names []string) *Node {
	for _, name := range names {
		if n.Dir == nil {
			return nil
		}
		if n = n.Dir.Lookup(name); n == nil {
			return nil
		}
	}
	return n
}

// Links is the paths below the root (names joined by "/") of every
// hard link to the file dev and ino, in the tree's order, at most max.
func (t *Tree) Links(dev, ino uint64, max int) []string {
	var out []string
	var walk func(n *Node, path string)
	walk = func(n *Node, path string) {
		for i := range n.Dir.Kids {
			k := &n.Dir.Kids[i]
			switch {
			case len(out) == max:
				return
			case k.Dir != nil:
				walk(k, path+k.Name+"/")
			case k.Flags&HardLink != 0 && k.Ino == ino && n.Dir.Dev == dev:
				out = append(out, path+k.Name)
			}
		}
	}
	if t.Root.Dir != nil {
		walk(&t.Root, "")
	}
	return out
}
