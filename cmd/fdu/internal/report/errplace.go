package report

import (
	"cmp"
	"math"
	"path/filepath"
	"slices"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
)

// placedErrors are the errors of a directory's entries, printed where du
// meets each entry: before the next subdirectory's walk, or the next
// file's line (-a).
type placedErrors struct {
	errs   []du.Error
	seen   int            // the directory's errors pulled so far
	places map[string]int // the directory's entries, numbered in du's order
	print  func(msg string)
}

// entryErrors prints the errors of n itself, at r.path[:end], which du reports
// first, and returns its entries', in du's order, to be placed among its
// subdirectories.
func (r *reporter) entryErrors(n *du.Dir, end int) placedErrors {
	p := placedErrors{print: r.msgs.Error}
	p.pull(r, n, end)
	return p
}

// pull takes the errors n has met since the last pull: n's own printed
// at once, its entries' placed in du's order among those not printed.
// A live scan adds a subdirectory's (it cannot be opened, or stat'ed)
// after n's listing, but before the report reaches it.
func (p *placedErrors) pull(r *reporter, n *du.Dir, end int) {
	news := n.ErrorsFrom(p.seen)
	if len(news) == 0 { // most directories have none
		return
	}
	path := r.pathTo(end)
	p.seen += len(news)
	added := false
	for _, e := range news {
		e = r.rb.apply(e)
		if e.Path == path {
			r.msgs.Error(e.Msg)
		} else {
			p.errs, added = append(p.errs, e), true
		}
	}
	if added {
		if p.places == nil {
			p.places = r.order.Places(path)
		}
		slices.SortStableFunc(p.errs, func(a, b du.Error) int {
			return cmp.Compare(p.place(filepath.Base(a.Path)), p.place(filepath.Base(b.Path)))
		})
	}
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
