package dutree

import (
	"math"

	"github.com/pbednarcik/flexreaddir/frd"
)

// Flags mark what a browser shows beside an entry, as ncdu's legend does.
type Flags uint16

const (
	ReadError  Flags = 1 << iota // a directory not read in full, or an entry not stat'ed
	ErrorBelow                   // a directory with a ReadError or Unfinished below (set by Recount)
	Excluded                     // left out by an --exclude pattern
	OtherFS                      // a directory on another file system, left out under -x
	KernFS                       // left out as a kernel file system (read from ncdu's files)
	Symlink                      // a symbolic link
	NotReg                       // neither a regular file nor a directory
	HardLink                     // a file with more than one link
	LinkSeen                     // a hard link whose file was counted at an earlier link (set by Recount)
	Unfinished                   // a directory a stopped scan never listed: its entries are unknown
)

// Node is one entry as read from its directory: a copy, of a file or of
// a directory with its Dir. Changes to it stay in the copy but for its
// Flags, which SetFlags writes back.
type Node struct {
	Name  string
	Dir   *Dir  // nil for anything but a directory
	Asize int64 // apparent size (st_size); a directory's own
	Dsize int64 // disk usage (st_blocks*512); a directory's own
	Ino   uint64
	Mtime int64 // seconds since 1970; 0 when unknown
	Nlink uint32
	Flags Flags
	Ext   Ext // owner, group and mode, in a tree kept Extended

	in *Dir // the directory it was read from (nil for the root)
	at int  // a file's: where its flags are in in's packed entries
}

// Dir is a directory: its entries, packed (pack.go), its own metadata
// (what its entry in its parent shows) and what Recount adds up below it.
type Dir struct {
	packed []byte
	subs   []*Dir // the directories among the entries, in their order
	own    own
	ext    *extCols // owner, group and mode, in a tree kept Extended

	Dev uint64 // the device of the directory and of its files
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

// own is a directory's own metadata: a Node's fields but its name.
type own struct {
	asize, dsize int64
	ino          uint64
	mtime        int64
	nlink        uint32
	flags        Flags
}

// Tree is a scan, or an export read.
type Tree struct {
	Top   *Dir   // the root directory
	Path  string // the root's name: the path scanned, made absolute
	Given string // the path scanned as given ("" when read from a file)
	// Incomplete is a scan stopped before it listed every directory (each
	// of those marked Unfinished).
	Incomplete bool
	// Extended is a tree scanned or read in extended mode: each entry's
	// Ext and Mtime are kept.
	Extended bool
	// FollowLinks is a tree scanned through symbolic links (-L): a file may
	// be met by several paths whatever its link count, so Recount counts
	// every file once by its inode, not only those with several links.
	FollowLinks bool

	// ours is, for each inode (device, inode) whose ctime a deletion
	// changed without removing it (a directory emptied of an entry, a file
	// with another link left), a time (ns) no earlier than that change:
	// where there is no birth time, a ctime up to it is not someone else's.
	ours map[frd.ID]int64
}

// NewTree is a tree of the directory root (root.Dir non-nil), root's
// metadata kept in its Dir.
func NewTree(root Node) *Tree {
	root.Dir.setOwn(&root)
	return &Tree{Top: root.Dir, Path: root.Name}
}

// Root is the root directory's entry.
func (t *Tree) Root() Node { return t.Top.node(t.Path) }

// node is d as an entry named name.
func (d *Dir) node(name string) Node {
	o := &d.own
	return Node{Name: name, Dir: d, Asize: o.asize, Dsize: o.dsize, Ino: o.ino, Mtime: o.mtime, Nlink: o.nlink, Flags: o.flags, Ext: d.ownExt()}
}

// setOwn keeps n's metadata as d's own.
func (d *Dir) setOwn(n *Node) {
	d.own = own{asize: n.Asize, dsize: n.Dsize, ino: n.Ino, mtime: n.Mtime, nlink: n.Nlink, flags: n.Flags}
	d.setOwnExt(n.Ext)
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
// the same on every run over the same tree. A tree Incomplete stays so
// while a directory is Unfinished (a rescan lists them).
func (t *Tree) Recount() {
	seen := map[frd.ID]struct{}{}
	if t.Top != nil {
		unfinished := recount(t.Top, seen, t.FollowLinks)
		t.Incomplete = t.Incomplete && unfinished > 0
	}
}

// recount counts d and returns how many directories below are Unfinished.
func recount(d *Dir, seen map[frd.ID]struct{}, all bool) (unfinished int) {
	d.Asize, d.Dsize, d.Items, d.Newest = d.own.asize, d.own.dsize, 0, d.own.mtime
	d.own.flags &^= ErrorBelow
	c := d.cursor()
	var k Node
	for c.next(&k) {
		d.Items++
		if sub := k.Dir; sub != nil {
			unfinished += recount(sub, seen, all)
			if sub.own.flags&Unfinished != 0 {
				unfinished++
			}
			d.Asize, d.Dsize = sat(d.Asize, sub.Asize), sat(d.Dsize, sub.Dsize)
			d.Items += sub.Items
			d.Newest = max(d.Newest, sub.Newest)
			if sub.own.flags&(ReadError|ErrorBelow|Unfinished) != 0 {
				d.own.flags |= ErrorBelow
			}
			continue
		}
		d.Newest = max(d.Newest, k.Mtime)
		if k.Flags&ReadError != 0 {
			d.own.flags |= ErrorBelow
		}
		if counted := countLink(&k, d.Dev, seen, all); !counted {
			continue
		}
		d.Asize, d.Dsize = sat(d.Asize, k.Asize), sat(d.Dsize, k.Dsize)
	}
	return unfinished
}

// countLink marks the file k LinkSeen (in d's entries) if another link to
// it was met before, and reports whether it is counted here. all counts
// every file once, whatever its link count (a tree walked through links).
func countLink(k *Node, dev uint64, seen map[frd.ID]struct{}, all bool) bool {
	f := k.Flags &^ LinkSeen
	if k.Flags&HardLink != 0 || all && k.Ino != 0 {
		id := frd.ID{Dev: dev, Ino: k.Ino}
		if _, ok := seen[id]; ok {
			f |= LinkSeen
		} else {
			seen[id] = struct{}{}
		}
	}
	if f != k.Flags {
		k.SetFlags(f)
	}
	return f&LinkSeen == 0
}

// sat is a+b for sizes (never negative), at most math.MaxInt64: a tree of
// sparse files can claim more than int64 holds.
func sat(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}
