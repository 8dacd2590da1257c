package du

import (
	"iter"
	"slices"
	"sync"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// Usage is what du adds up for one file or directory.
type Usage struct {
	Size   uint64 // bytes: apparent, or allocated (blocks * 512)
	Inodes uint64
	TMax   units.Stamp // the latest time
}

// Add adds v to u, keeping the later time.
func (u *Usage) Add(v Usage) {
	u.Size += v.Size
	u.Inodes += v.Inodes
	if v.TMax.After(u.TMax) {
		u.TMax = v.TMax
	}
}

// State is how far the walk got with a directory.
type State uint8

// Directory states.
const (
	Unreached  State = iota // listed in its parent, never reached: skipped (-x, vanished)
	Listed                  // listed
	Unreadable              // could not be opened or read
)

// Dir is one directory of a scan: what the report needs of it, and no
// more (files are summed into sum unless the report must see each).
type Dir struct {
	state    State
	moved    bool   // renamed or removed while its subtree was walked
	same     *Dir   // the directory, reached before by another path: walked there
	walkPath string // where it was walked, once another path has led to it
	own      Usage  // the directory's own size, inode and time
	dev, ino uint64
	sum      Usage   // files not kept as items
	items    Items   // subdirectories, and the files the report must see
	names    []byte  // the items' names, one after another
	cuts     []int   // len(items) after each ftsBatch entries listed
	nentries int     // entries listed, for du's inode sort of huge directories
	errs     []Error // its own, and its entries' that could not be stat'ed

	mu       sync.Mutex
	expected map[string]*Dir // subdirectories listed but not reached yet, by name

	// A live scan's marks (under its Live's lock): the listing is whole;
	// the subtree is walked.
	listedAll, done bool
}

// State is how far the walk got with d.
func (d *Dir) State() State { return d.state }

// Moved reports whether d was renamed or removed while its subtree was
// walked: du stops there.
func (d *Dir) Moved() bool { return d.moved }

// Own is d's own size, inode and time, without its entries'.
func (d *Dir) Own() Usage { return d.own }

// ID is d's device and inode number.
func (d *Dir) ID() (dev, ino uint64) { return d.dev, d.ino }

// FilesSum is the usage of d's files not kept as items.
func (d *Dir) FilesSum() Usage { return d.sum }

// Errors are the messages of d's own errors and of its entries that could
// not be stat'ed, in the order the walk met them, each with its path.
func (d *Dir) Errors() []Error { return d.errs }

// Failed reports whether d, or an entry in it, could not be read.
func (d *Dir) Failed() bool { return d.state == Unreadable || len(d.errs) > 0 }

// Walked is the node holding d's walk: d, or the one d is the same
// directory as (-L, or several arguments: du walks a directory once).
func (d *Dir) Walked() *Dir {
	if d.same != nil {
		return d.same
	}
	return d
}

// WalkPath is where d was walked, when another path led to it too, or "".
func (d *Dir) WalkPath() string { return d.walkPath }

// MarkUnreadable makes d, a root the walk never reached, an unreadable
// directory of st's own size, as du counts one it cannot open.
func (d *Dir) MarkUnreadable(st Stat) {
	d.state = Unreadable
	d.own, d.dev, d.ino = st.Use, st.Dev, st.Ino
}

// Items are d's items in the order d was listed.
func (d *Dir) Items() Items { return d.items }

// Name is the name of it, an item of d; "" for a file kept without one.
func (d *Dir) Name(it *Item) string {
	if it.len == 0 {
		return ""
	}
	return unsafe.String(&d.names[it.off], it.len)
}

// LinkID is a file item's (device, inode) for the hard-link set, and
// whether it goes through it.
func (d *Dir) LinkID(it *Item) (dev, ino uint64, hash bool) {
	if it.more == nil {
		return d.dev, it.ino, false
	}
	return it.more.dev, it.ino, it.more.hash
}

// SubtreeErrors gathers the errors of d and of every directory below it,
// depth first.
func (d *Dir) SubtreeErrors() []Error {
	errs := slices.Clone(d.errs)
	for it := range d.items.All() {
		if it.dir != nil {
			errs = append(errs, it.dir.SubtreeErrors()...)
		}
	}
	return errs
}

// addName stores name in d's names and returns its place.
func (d *Dir) addName(name string) (off, length uint32) {
	off = uint32(len(d.names))
	d.names = append(d.names, name...)
	return off, uint32(len(name))
}

// Item is a file kept for the report, or a subdirectory, in listing order.
// Under -a a directory of a million files keeps a million: 40 bytes each,
// the name in the directory's names, and the rare rest behind more.
type Item struct {
	dir  *Dir      // a subdirectory, else nil
	more *itemMore // a file's time, device and hard-link flag, when it has them
	size uint64    // a file's bytes, as Usage.Size counts them
	ino  uint64    // a file's inode number
	off  uint32    // the name: the owning node's names[off:off+len]
	len  uint32    // 0 for a file kept without its name
}

// itemMore is what a file item needs beyond its size, only sometimes:
// its time under --time, its device when not the directory's (-L), and
// whether it goes through the hard-link set.
type itemMore struct {
	dev  uint64
	tmax units.Stamp
	hash bool
}

// Hashed reports whether it, a file, goes through the hard-link set.
func (it *Item) Hashed() bool { return it.more != nil && it.more.hash }

// Sub is the subdirectory it stands for, or nil for a file.
func (it *Item) Sub() *Dir { return it.dir }

// Use is a file item's usage, as the report adds it.
func (it *Item) Use() Usage {
	u := Usage{Size: it.size, Inodes: 1}
	if it.more != nil {
		u.TMax = it.more.tmax
	}
	return u
}

// Items hold a directory's items in chunks, so that a directory of a
// million files grows without copying what it holds, or leaving the
// copies for the collector.
type Items struct{ chunks [][]Item }

const itemChunk = 1024

func (l *Items) add(it Item) {
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == itemChunk {
		size := 0 // the first chunk grows as a slice does: most directories hold few
		if k > 0 {
			size = itemChunk
		}
		l.chunks = append(l.chunks, make([]Item, 0, size))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, it)
}

// All is each item in order. A range over it compiles to plain loops
// where All is inlined, as it is small enough to be: keep it so, or each
// directory's loop body is allocated on the heap.
func (l *Items) All() iter.Seq[*Item] {
	return func(yield func(*Item) bool) {
		for _, c := range l.chunks {
			for i := range c {
				if !yield(&c[i]) {
					return
				}
			}
		}
	}
}

func (l *Items) len() int {
	n := 0
	for _, c := range l.chunks {
		n += len(c)
	}
	return n
}
