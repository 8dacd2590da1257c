package snapshot

import (
	"errors"
	"io/fs"
)

// keep reports whether the compare needs the item: a change, or a
// directory to descend into; it notes whether the item may be half of a
// move.
func keep(it *item, r *rules, devs []Device) bool {
	switch it.kind {
	case 0:
		return it.old != nil && it.old.Type.IsDir() || it.cur != nil && it.cur.Type.IsDir()
	case Removed:
		it.moves = r.movable(it.old, devs)
	case Added:
		it.moves = r.movable(it.cur, devs)
	}
	return true
}

// checkNames is mergeDir for a directory known to hold no name the
// snapshot lacks: it stats each recorded name in df and keeps what keep
// keeps, without holding every entry's stat.
func checkNames(df dirFile, olds []Entry, keys Keys, devs []Device, r *rules) []item {
	var items []item
	for i := range olds {
		old := &olds[i]
		x, err := statAt(df, old.Name, keys)
		it := item{name: old.Name, old: old}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			it.kind = Removed
		case err != nil:
			it.cur, it.kind, it.err = &Entry{Name: old.Name, Type: old.Type}, Unreadable, err
		case old.Unread:
			it.cur, it.kind, it.err = heapCopy(x), Racy, ErrNotRead
		default:
			mask(&x, keys)
			var h func() string
			if r.hash && old.Hash != "" {
				xc := x
				h = func() string { return hashAt(df, &xc) }
			}
			it.kind, it.fields = r.classify(old, &x, devs, h)
			if it.kind == 0 && !old.Type.IsDir() && !x.Type.IsDir() {
				continue // the common case: nothing to keep, nothing on the heap
			}
			it.cur = heapCopy(x)
		}
		if keep(&it, r, devs) {
			items = append(items, it)
		}
	}
	return items
}

// heapCopy returns a pointer to a copy of x, so that x itself stays on
// the stack.
func heapCopy(x Entry) *Entry { return &x }

// item is one name of a directory on either side of a compare, and how
// it changed.
type item struct {
	name   string
	old    *Entry // nil when only the tree (or the later snapshot) has it
	cur    *Entry // nil when only the snapshot has it
	kind   Kind   // 0: the same
	fields Fields
	err    error // cur could not be stat'ed: Unreadable
	moves  bool  // may be half of a move
}

// mergeDir merges a directory's entries as recorded (olds) and as found
// (curs, with curErrs the error of each that could not be stat'ed, or
// nil), both sorted by name, into items in name order. hashOf, when set,
// gives a way to hash a current entry.
// devs is the older snapshot's device table as of the directory.
func mergeDir(olds, curs []Entry, curErrs []error, devs []Device, r *rules, hashOf func(*Entry) func() string) []item {
	items := make([]item, 0, max(len(olds), len(curs)))
	i, j := 0, 0
	for i < len(olds) || j < len(curs) {
		var it item
		switch {
		case j == len(curs) || i < len(olds) && olds[i].Name < curs[j].Name:
			it = item{name: olds[i].Name, old: &olds[i], kind: Removed}
			i++
		case i == len(olds) || curs[j].Name < olds[i].Name:
			it = item{name: curs[j].Name, cur: &curs[j], kind: Added}
			j++
		default:
			it = item{name: olds[i].Name, old: &olds[i], cur: &curs[j]}
			i, j = i+1, j+1
		}
		if cur := it.cur; cur != nil && curErrs != nil && curErrs[j-1] != nil {
			it.kind, it.err = Unreadable, curErrs[j-1]
		} else if it.old != nil && it.cur != nil && it.old.Unread {
			it.kind, it.err = Racy, ErrNotRead
		} else if it.old != nil && it.cur != nil {
			var h func() string
			if hashOf != nil {
				h = hashOf(it.cur)
			}
			it.kind, it.fields = r.classify(it.old, it.cur, devs, h)
		}
		if keep(&it, r, devs) {
			items = append(items, it)
		}
	}
	return items
}
