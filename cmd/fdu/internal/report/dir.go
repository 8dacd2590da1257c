package report

import (
	"bytes"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// dir reports the directory n at path, level deep, in parent (nil for an
// argument), and returns its own usage and that of everything below it,
// for its parent; ok is false when it is not counted at all. Reading a
// live scan, it waits for what it reads: n's listing, each subdirectory's
// in turn, and at the end n's subtree (its errors and moves known); and
// it lets each subdirectory go once reported.
func (r *reporter) dir(n, parent *du.Dir, path string, level int) (own, below du.Usage, ok bool) {
	r.path = append(r.path[:0], path...)
	return r.dirAt(n, parent, len(path), level)
}

// dirAt is dir for the directory at r.path[:end]. Each level builds its
// path from the one buffer when it needs it, as fts does, and holds none
// while its subdirectories are reported: a chain d levels deep then
// costs one path, not d of them.
func (r *reporter) dirAt(n, parent *du.Dir, end, level int) (own, below du.Usage, ok bool) {
	r.live.WaitListed(n, parent)
	if n.State() == du.Unreached || r.stopped || !r.once.countsDir(n) {
		return own, below, false
	}
	if w := n.Walked(); w != n {
		defer r.rebaseTo(w, r.pathTo(end))()
		n = w
	}
	errs := r.entryErrors(n, end)
	ent, sub, ok := r.entries(n, parent, &errs, end, level)
	if !ok {
		return own, below, false
	}
	r.live.WaitDone(n, parent)
	errs.pull(r, n, end) // the subdirectories wrote past end only
	errs.printRest()
	if n.Moved() {
		r.msgs.Error(message.Moved(r.pathTo(end)))
		r.stopped = true
		return own, below, false
	}
	own = n.Own()
	r.grand.Add(own)
	shown := own
	shown.Add(ent)
	if !r.du.SeparateDirs {
		shown.Add(sub)
	}
	if level <= r.du.MaxDepth {
		r.printBytes(shown, r.path[:end])
	}
	below = ent
	below.Add(sub)
	return own, below, true
}

// entries reports n's entries, at r.path[:end], in du's order, with the
// errors du meets among them, and returns the usage of those directly
// inside n and of everything deeper; ok is false when the report stopped.
func (r *reporter) entries(n, parent *du.Dir, errs *placedErrors, end, level int) (ent, sub du.Usage, ok bool) {
	ent.Add(n.FilesSum())
	r.grand.Add(n.FilesSum())
	// prefix is the path without one trailing slash, for its entries'.
	prefix := len(bytes.TrimSuffix(r.path[:end], []byte("/")))
	path := "" // made only for a directory du may sort: most need none
	if n.ListedMany() {
		path = r.pathTo(end)
	}
	if n.SortedByInode(path) {
		r.live.WaitDone(n, parent) // by its subdirectories' inodes, known once each is read
	}
	items := n.InDuOrder(path)
	for it := range items.All() {
		name := n.Name(it)
		if c := it.Sub(); c != nil && r.live != nil {
			errs.pull(r, n, end) // a subdirectory's own, met once the listing was read
		}
		if it.Sub() != nil || r.du.All && name != "" {
			errs.printBefore(name)
		}
		if c := it.Sub(); c != nil {
			r.path = append(append(r.path[:prefix], '/'), name...)
			cOwn, cBelow, ok := r.dirAt(c, n, len(r.path), level+1)
			if r.live != nil {
				r.live.Release(c)
			}
			if r.stopped {
				return ent, sub, false
			}
			if ok {
				if !r.du.SeparateDirs {
					ent.Add(cOwn)
				}
				sub.Add(cBelow)
			}
			continue
		}
		if !r.once.countsFile(n, it) {
			continue // counted before, through another hard link
		}
		u := it.Use()
		ent.Add(u)
		r.grand.Add(u)
		if r.du.All && level+1 <= r.du.MaxDepth {
			r.path = append(append(r.path[:prefix], '/'), name...)
			r.printBytes(u, r.path)
		}
	}
	return ent, sub, true
}

// pathTo is the path in r.path[:end] as a string.
func (r *reporter) pathTo(end int) string { return string(r.path[:end]) }

// rebase moves the errors met under from to where du meets them, to.
type rebase struct{ from, to string }

func (rb rebase) apply(e du.Error) du.Error {
	if rb.from == "" || e.Path != rb.from && !strings.HasPrefix(e.Path, rb.from+"/") {
		return e
	}
	p := rb.to + e.Path[len(rb.from):]
	return du.Error{Path: p, Msg: strings.Replace(e.Msg, message.Quote(e.Path), message.Quote(p), 1)}
}

// rebaseTo names the errors of w, a directory walked by another path than
// path, where du meets them, below path; it returns what restores the
// names of the directory above.
func (r *reporter) rebaseTo(w *du.Dir, path string) (restore func()) {
	old := r.rb
	if wp := w.WalkPath(); wp != "" && wp != path {
		r.rb = rebase{wp, path}
	}
	return func() { r.rb = old }
}
