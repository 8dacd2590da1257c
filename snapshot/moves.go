package snapshot

// DefaultMoveWindow is how many changes a compare holds back, by default,
// while it looks for the other half of a move.
const DefaultMoveWindow = 10_000

// mover pairs a removed path with an added one of the same file (device,
// inode) into a move, holding back up to window changes: a removal or an
// addition waits there, in path order, for its other half until window
// later changes have come, then goes out as it is. A move is reported at
// its new path's place.
type mover struct {
	window  int
	rules   *rules
	queue   []*Change // held back, in path order; nil where one was taken into a move
	waiting map[fileKey]int
	base    int // the queue index of queue[0] since the start, for waiting's values
	emit    func(*Change) error
}

type fileKey struct {
	dev, ino uint64
	kind     Kind
}

func newMover(window int, r *rules, emit func(*Change) error) *mover {
	return &mover{window: window, rules: r, waiting: map[fileKey]int{}, emit: emit}
}

// add takes the next change in path order.
func (m *mover) add(c *Change) error {
	if m.window <= 0 {
		return m.emit(c)
	}
	if x, ok := m.half(c); ok {
		other := fileKey{x.Device, x.FileID, Added + Removed - c.Kind}
		if i, ok := m.waiting[other]; ok && m.pairs(m.queue[i-m.base], c) {
			delete(m.waiting, other)
			m.join(i-m.base, c)
			return m.flush(false)
		}
		if _, dup := m.waiting[fileKey{x.Device, x.FileID, c.Kind}]; !dup {
			m.waiting[fileKey{x.Device, x.FileID, c.Kind}] = m.base + len(m.queue)
		}
	}
	m.queue = append(m.queue, c)
	return m.flush(false)
}

// half returns the entry by which c may be half of a move.
func (m *mover) half(c *Change) (*Entry, bool) {
	var x *Entry
	switch c.Kind {
	case Added:
		x = &c.New
	case Removed:
		x = &c.Old
	default:
		return nil, false
	}
	if !c.movable {
		return nil, false
	}
	return x, true
}

// pairs reports whether a and b, one removed and one added with the same
// inode, are one file moved rather than an inode used again: the same
// type and, but for a directory, the same contents' size and time.
func (m *mover) pairs(a, b *Change) bool {
	old, cur := &a.Old, &b.New
	if a.Kind == Added {
		old, cur = &b.Old, &a.New
	}
	if old.Type != cur.Type {
		return false
	}
	return old.Type.IsDir() || m.rules.differ(old, cur, false)&(FieldSize|FieldModTime|FieldTarget) == 0
}

// join makes the waiting change at queue index i and c one move, in the
// place of the addition.
func (m *mover) join(i int, c *Change) {
	w := m.queue[i]
	rm, add := w, c
	if w.Kind == Added {
		rm, add = c, w
	}
	mv := &Change{Kind: Moved, Path: add.Path, OldPath: rm.Path, Old: rm.Old, New: add.New}
	mv.Fields = m.rules.differ(&mv.Old, &mv.New, false)
	if w.Kind == Added {
		m.queue[i] = mv
		return
	}
	m.queue[i] = nil
	m.queue = append(m.queue, mv)
}

// flush sends on what need not wait: the queue's head while it waits for
// nothing or the queue is over its window, or everything at the end.
func (m *mover) flush(all bool) error {
	for len(m.queue) > 0 {
		c := m.queue[0]
		if c != nil {
			if x, ok := m.half(c); ok && !all && len(m.queue) <= m.window {
				if i, ok := m.waiting[fileKey{x.Device, x.FileID, c.Kind}]; ok && i == m.base {
					return nil
				}
			}
			if x, ok := m.half(c); ok {
				k := fileKey{x.Device, x.FileID, c.Kind}
				if i, ok := m.waiting[k]; ok && i == m.base {
					delete(m.waiting, k)
				}
			}
			if err := m.emit(c); err != nil {
				return err
			}
			if c.Kind == Moved && c.Fields&content != 0 {
				if err := m.emit(&Change{Kind: Modified, Path: c.Path, Old: c.Old, New: c.New, Fields: c.Fields}); err != nil {
					return err
				}
			}
		}
		m.queue[0] = nil
		m.queue = m.queue[1:]
		m.base++
	}
	return nil
}
