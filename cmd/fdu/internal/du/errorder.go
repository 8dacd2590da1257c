package du

import (
	"cmp"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/pbednarcik/flexreaddir/frd"
)

// Error is an error message du prints and the path it is about.
type Error struct{ Path, Msg string }

// SortErrors puts errs, met by a parallel walk of root, in the order du
// meets them: depth first, a directory before what is inside it, and each
// directory's entries in the order du reads them (the kernel's, or by
// inode for a directory of over 10,000 entries, as fts sorts it). It lists
// again, by names, each directory on the errors' paths, once: errors are
// few, and a sum keeps no listing. A path it cannot place keeps its place
// after those it can.
func SortErrors(root string, errs []Error) {
	if len(errs) < 2 {
		return
	}
	o := ErrorOrder{root: root, pos: map[string]map[string]int{}}
	keys := make(map[string][]int, len(errs))
	for _, e := range errs {
		if _, ok := keys[e.Path]; !ok {
			keys[e.Path] = o.key(e.Path)
		}
	}
	slices.SortStableFunc(errs, func(a, b Error) int { return slices.Compare(keys[a.Path], keys[b.Path]) })
}

// ErrorOrder numbers the entries of directories in du's order, listing
// each directory again once: the zero value is ready for Places.
type ErrorOrder struct {
	root string
	pos  map[string]map[string]int // directory: entry name: place in du's order
}

// key is path's place in du's walk: the place of each of its names, from
// root down.
func (o *ErrorOrder) key(path string) []int {
	rel, ok := strings.CutPrefix(path, o.root)
	if !ok {
		return []int{math.MaxInt}
	}
	rel = strings.TrimLeft(rel, "/")
	if rel == "" {
		return nil // the root itself comes first
	}
	var key []int
	dir := o.root
	for _, name := range strings.Split(rel, "/") {
		p, ok := o.Places(dir)[name]
		if !ok {
			p = math.MaxInt
		}
		key = append(key, p)
		dir = childPath(dir, name)
	}
	return key
}

// Places lists dir and numbers its entries in du's order.
func (o *ErrorOrder) Places(dir string) map[string]int {
	if m, ok := o.pos[dir]; ok {
		return m
	}
	if o.pos == nil {
		o.pos = map[string]map[string]int{}
	}
	m := map[string]int{}
	o.pos[dir] = m
	f, err := os.Open(dir)
	if err != nil {
		return m
	}
	l := frd.Lister{Names: true}
	entries, _ := l.AppendDir(nil, f)
	f.Close()
	if len(entries) > ftsSortMin && !isTmpfs(dir) {
		inos := make(map[string]uint64, len(entries))
		for _, e := range entries {
			inos[e.Name] = inodeOf(childPath(dir, e.Name))
		}
		slices.SortStableFunc(entries, func(a, b frd.Entry) int { return cmp.Compare(inos[a.Name], inos[b.Name]) })
	}
	for i, e := range entries {
		m[e.Name] = i
	}
	return m
}
