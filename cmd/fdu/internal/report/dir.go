package report

import (
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
	r.live.WaitListed(n, parent)
	if n.State() == du.Unreached || r.stopped || !r.once.countsDir(n) {
		return own, below, false
	}
	if w := n.Walked(); w != n {
		defer r.rebaseTo(w, path)()
		n = w
	}
	errs := r.entryErrors(n, path)
	var ent, sub du.Usage // entries directly inside; everything deeper
	ent.Add(n.FilesSum())
	r.grand.Add(n.FilesSum())
	prefix := strings.TrimSuffix(path, "/")
	if n.SortedByInode(path) {
		r.live.WaitDone(n, parent) // by its subdirectories' inodes, known once each is read
	}
	items := n.InDuOrder(path)
	for it := range items.All() {
		name := n.Name(it)
		if c := it.Sub(); c != nil && r.live != nil {
			errs.pull(r, n, path) // a subdirectory's own, met once the listing was read
		}
		if it.Sub() != nil || r.du.All && name != "" {
			errs.printBefore(name)
		}
		if c := it.Sub(); c != nil {
			cOwn, cBelow, ok := r.dir(c, n, prefix+"/"+name, level+1)
			if r.live != nil {
				r.live.Release(c)
			}
			if r.stopped {
				return own, below, false
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
			r.printIn(u, prefix, name)
		}
	}
	r.live.WaitDone(n, parent)
	errs.pull(r, n, path)
	errs.printRest()
	if n.Moved() {
		r.msgs.Error(message.Moved(path))
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
		r.print(shown, path)
	}
	below = ent
	below.Add(sub)
	return own, below, true
}

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
