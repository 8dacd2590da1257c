package main

import (
	"bufio"
	"cmp"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pbednarcik/flexreaddir/walk"
)

// reporter prints a scanned tree in GNU du's order and format: depth
// first, each directory after its contents, entries in the order the
// directory lists them.
type reporter struct {
	cfg    *config
	out    *bufio.Writer
	errOut func(msg string)
	note   func(msg string) // a message that does not fail the run
	order  errorOrder       // directories listed again to place their entries' errors
	links  *walk.LinkSet    // the hard-link set, across all arguments
	grand  usage            // everything counted, for -c
	// stopped is set at a directory moved during the walk: du's fts fails
	// there, and du prints nothing more but the total.
	stopped bool
	// rb renames the errors of a directory walked under another path than
	// the one du meets it by (-L: two links to it).
	rb rebase
}

// rebase moves the errors met under from to where du meets them, to.
type rebase struct{ from, to string }

func (rb rebase) apply(e duError) duError {
	if rb.from == "" || e.path != rb.from && !strings.HasPrefix(e.path, rb.from+"/") {
		return e
	}
	p := rb.to + e.path[len(rb.from):]
	return duError{p, strings.Replace(e.msg, quote(e.path), quote(p), 1)}
}

// firstSeen records (dev, ino) and reports whether it is new.
func (r *reporter) firstSeen(dev, ino uint64) bool {
	return !r.links.Seen(dev, ino)
}

func (r *reporter) print(u usage, path string) { r.printIn(u, path, "") }

// printIn prints the line of dir/name (of dir, with no name) without
// joining them first: -a prints a line per file.
func (r *reporter) printIn(u usage, dir, name string) {
	if v, t := r.value(u), r.cfg.threshold; t < 0 && v > uint64(-t) || t >= 0 && v < uint64(t) {
		return
	}
	r.lineIn(u, dir, name)
}

// value is what a line shows of u: bytes, or inodes under --inodes.
func (r *reporter) value(u usage) uint64 {
	if r.cfg.inodes {
		return u.inodes
	}
	return u.size
}

// line prints a line whatever the threshold, as du prints its total.
func (r *reporter) line(u usage, path string) { r.lineIn(u, path, "") }

func (r *reporter) lineIn(u usage, path, name string) {
	r.out.WriteString(r.cfg.unit.format(r.value(u)))
	if r.cfg.showTime {
		r.out.WriteByte('\t')
		r.out.WriteString(r.formatTime(u.tmax))
	}
	r.out.WriteByte('\t')
	r.out.WriteString(path)
	if name != "" {
		r.out.WriteByte('/')
		r.out.WriteString(name)
	}
	if r.cfg.null {
		r.out.WriteByte(0)
	} else {
		r.out.WriteByte('\n')
	}
}

// file reports a command-line argument that is not a directory.
func (r *reporter) file(st statResult, path string) {
	if !r.cfg.countLinks && (r.cfg.hashAll || st.nlink > 1) && !r.firstSeen(st.dev, st.ino) {
		return
	}
	r.grand.add(st.use)
	r.print(st.use, path)
}

// dir reports the directory n at path, level deep, and returns its own
// usage and that of everything below it, for its parent; ok is false when
// it is not counted at all.
func (r *reporter) dir(n *dnode, path string, level int) (own, below usage, ok bool) {
	if n.state == pending || r.stopped {
		return own, below, false
	}
	if !r.cfg.countLinks && r.cfg.hashAll && !r.firstSeen(n.dev, n.ino) {
		return own, below, false
	}
	if w := n.walked(); w != n {
		if w.walkPath != "" && w.walkPath != path {
			defer func(old rebase) { r.rb = old }(r.rb)
			r.rb = rebase{w.walkPath, path}
		}
		n = w
	}
	// du reports the directory's own error first, and its entries' at
	// their places among its subdirectories' walks.
	var entryErrs []duError
	for _, e := range n.errs {
		e = r.rb.apply(e)
		if e.path == path {
			r.errOut(e.msg)
		} else {
			entryErrs = append(entryErrs, e)
		}
	}
	var places map[string]int
	place := func(name string) int {
		if p, ok := places[name]; ok {
			return p
		}
		return math.MaxInt
	}
	if len(entryErrs) > 0 {
		places = r.order.places(path)
		slices.SortStableFunc(entryErrs, func(a, b duError) int {
			return cmp.Compare(place(filepath.Base(a.path)), place(filepath.Base(b.path)))
		})
	}
	var ent, sub usage // entries directly inside; everything deeper
	ent.add(n.sum)
	r.grand.add(n.sum)
	items := n.items
	if n.nentries > ftsSortMin && !isTmpfs(path) {
		// fts sorts a directory of over 10,000 entries by inode number,
		// in batches of 100,000 as it reads them.
		big := func(i int) bool { return min(n.nentries-i*ftsBatch, ftsBatch) > ftsSortMin }
		items = items.sortedIn(n.cuts, big, func(a, b item) int { return cmp.Compare(itemIno(a), itemIno(b)) })
	}
	prefix := strings.TrimSuffix(path, "/")
	for it := range items.all() {
		name := n.name(it)
		if it.dir != nil || r.cfg.all && name != "" {
			// du meets an entry's error where it meets the entry: before
			// the next subdirectory's walk, or the next file's line (-a).
			for len(entryErrs) > 0 && place(filepath.Base(entryErrs[0].path)) < place(name) {
				r.errOut(entryErrs[0].msg)
				entryErrs = entryErrs[1:]
			}
		}
		if it.dir != nil {
			cOwn, cBelow, ok := r.dir(it.dir, prefix+"/"+name, level+1)
			if r.stopped {
				return own, below, false
			}
			if !ok {
				continue
			}
			if !r.cfg.separateDirs {
				ent.add(cOwn)
			}
			sub.add(cBelow)
			continue
		}
		if dev, ino, hash := n.linkID(it); hash && !r.cfg.countLinks && !r.firstSeen(dev, ino) {
			continue
		}
		u := it.use()
		ent.add(u)
		r.grand.add(u)
		if r.cfg.all && level+1 <= r.cfg.maxDepth {
			r.printIn(u, prefix, name)
		}
	}
	for _, e := range entryErrs {
		r.errOut(e.msg)
	}
	if n.moved {
		r.errOut(movedError(path))
		r.stopped = true
		return own, below, false
	}
	own = n.own
	r.grand.add(own)
	shown := own
	shown.add(ent)
	if !r.cfg.separateDirs {
		shown.add(sub)
	}
	if level <= r.cfg.maxDepth {
		r.print(shown, path)
	}
	below = ent
	below.add(sub)
	return own, below, true
}

func itemIno(it item) uint64 {
	if it.dir != nil {
		return it.dir.ino
	}
	return it.ino
}

func (r *reporter) total() {
	r.line(r.grand, "total")
}
