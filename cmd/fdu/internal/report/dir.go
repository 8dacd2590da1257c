package report

import (
	"cmp"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// dir reports the directory n at path, level deep, and returns its own
// usage and that of everything below it, for its parent; ok is false when
// it is not counted at all.
func (r *reporter) dir(n *du.Dir, path string, level int) (own, below du.Usage, ok bool) {
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
	items := n.InDuOrder(path)
	for it := range items.All() {
		name := n.Name(it)
		if it.Sub() != nil || r.du.All && name != "" {
			errs.printBefore(name)
		}
		if c := it.Sub(); c != nil {
			cOwn, cBelow, ok := r.dir(c, prefix+"/"+name, level+1)
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

// placedErrors are the errors of a directory's entries, printed where du
// meets each entry: before the next subdirectory's walk, or the next
// file's line (-a).
type placedErrors struct {
	errs   []du.Error
	places map[string]int // the directory's entries, numbered in du's order
	print  func(msg string)
}

// entryErrors prints the errors of n itself, at path, which du reports
// first, and returns its entries', in du's order, to be placed among its
// subdirectories.
func (r *reporter) entryErrors(n *du.Dir, path string) placedErrors {
	if len(n.Errors()) == 0 { // small enough to inline: most directories have none
		return placedErrors{}
	}
	return r.placeErrors(n, path)
}

func (r *reporter) placeErrors(n *du.Dir, path string) placedErrors {
	p := placedErrors{print: r.msgs.Error}
	for _, e := range n.Errors() {
		e = r.rb.apply(e)
		if e.Path == path {
			r.msgs.Error(e.Msg)
		} else {
			p.errs = append(p.errs, e)
		}
	}
	if len(p.errs) > 0 {
		p.places = r.order.Places(path)
		slices.SortStableFunc(p.errs, func(a, b du.Error) int {
			return cmp.Compare(p.place(filepath.Base(a.Path)), p.place(filepath.Base(b.Path)))
		})
	}
	return p
}

// place is the entry name's place in du's order; past the end when the
// directory does not list it.
func (p *placedErrors) place(name string) int {
	if i, ok := p.places[name]; ok {
		return i
	}
	return math.MaxInt
}

// printBefore prints the errors of the entries du meets before name.
func (p *placedErrors) printBefore(name string) {
	if len(p.errs) > 0 { // small enough to inline: most directories have none
		p.printUpTo(name)
	}
}

func (p *placedErrors) printUpTo(name string) {
	for len(p.errs) > 0 && p.place(filepath.Base(p.errs[0].Path)) < p.place(name) {
		p.print(p.errs[0].Msg)
		p.errs = p.errs[1:]
	}
}

// printRest prints the errors not printed yet.
func (p *placedErrors) printRest() {
	for _, e := range p.errs {
		p.print(e.Msg)
	}
}
