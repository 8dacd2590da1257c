package snapshot

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
		switch it.kind {
		case Removed:
			it.moves = r.movable(it.old, devs)
		case Added:
			it.moves = r.movable(it.cur, devs)
		}
		items = append(items, it)
	}
	return items
}
