package browse

import (
	"slices"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// markKey names a marked entry: its directory and its name. The marks
// are a set beside the tree, which keeps no field for them.
type markKey struct {
	dir  *dutree.Dir
	name string
}

// marked is what a mark keeps of its entry: its directory as names below
// the root, and when that directory was scanned. A rescan of the
// directory drops the mark: what is under the name now may be another
// entry (another user's file, a directory they filled), which the user
// never chose.
type marked struct {
	names   []string
	scanned int64 // the directory's Scanned when the mark was made
}

// marks are the entries marked, in any directory, and what recount found
// of them.
type marks struct {
	set map[markKey]marked // each mark's entry
	// The marked entries not inside another marked directory (which
	// holds them already): how many, and their sizes.
	count        int
	asize, dsize int64
}

// marked reports whether the entry name of the directory shown is marked.
func (b *browser) marked(name string) bool {
	_, ok := b.marks.set[markKey{b.dir().Dir, name}]
	return ok
}

// toggleMark marks the selected entry, or unmarks it, and moves down.
func (b *browser) toggleMark() {
	n := b.selected()
	if n == nil {
		return
	}
	b.setMark(n, !b.marked(n.Name))
	b.recountMarks()
	b.sel = min(b.sel+1, len(b.view)-1)
}

// markAll marks every entry shown in the directory, or, when all are
// marked already, unmarks them.
func (b *browser) markAll() {
	all := true
	for _, i := range b.view {
		all = all && b.marked(b.kids[i].Name)
	}
	for _, i := range b.view {
		b.setMark(&b.kids[i], !all)
	}
	b.recountMarks()
}

func (b *browser) setMark(n *dutree.Node, on bool) {
	k := markKey{b.dir().Dir, n.Name}
	m := marked{names: b.names(), scanned: b.dir().Dir.Scanned}
	switch {
	case on && b.marks.set == nil:
		b.marks.set = map[markKey]marked{k: m}
	case on:
		b.marks.set[k] = m
	default:
		delete(b.marks.set, k)
	}
}

// recountMarks drops the marks of entries no longer in the tree, and of
// every entry of a directory scanned again since (the names may be other
// entries' now), and counts what is marked, once for each directory of
// marks (one listing each, whatever their number).
func (b *browser) recountMarks() {
	m := &b.marks
	m.count, m.asize, m.dsize = 0, 0, 0
	byDir := map[*dutree.Dir][]string{}
	for k, v := range m.set {
		byDir[k.dir] = v.names
	}
	type group struct {
		chain []*dutree.Dir // the directories from the root down to this one
		found []dutree.Node // its marked entries
	}
	groups := map[*dutree.Dir]*group{}
	markedDirs := map[*dutree.Dir]bool{}
	for dir, names := range byDir {
		chain := b.chain(names)
		var now *dutree.Dir
		if len(chain) == len(names)+1 {
			now = chain[len(chain)-1]
		}
		g := &group{chain: chain}
		if now != nil {
			for _, k := range now.Entries() {
				if v, ok := m.set[markKey{dir, k.Name}]; ok && v.scanned == now.Scanned {
					g.found = append(g.found, k)
				}
			}
		}
		for k, v := range m.set {
			if k.dir != dir {
				continue
			}
			delete(m.set, k)
			if now != nil && slices.ContainsFunc(g.found, func(n dutree.Node) bool { return n.Name == k.name }) {
				m.set[markKey{now, k.name}] = v
			}
		}
		if now == nil {
			continue
		}
		groups[now] = g
		for i := range g.found {
			if d := g.found[i].Dir; d != nil {
				markedDirs[d] = true
			}
		}
	}
	for _, g := range groups {
		if slices.ContainsFunc(g.chain, func(d *dutree.Dir) bool { return markedDirs[d] }) {
			continue // inside a marked directory: counted with it
		}
		for i := range g.found {
			n := &g.found[i]
			m.count++
			m.asize += b.sizeOf(n, true)
			m.dsize += b.sizeOf(n, false)
		}
	}
}

// chain is the directories from the root down names, as far as they are
// in the tree.
func (b *browser) chain(names []string) []*dutree.Dir {
	root := b.cfg.Tree.Root()
	out := []*dutree.Dir{root.Dir}
	d := root.Dir
	for _, name := range names {
		n := d.Lookup(name)
		if n == nil || n.Dir == nil {
			break
		}
		d = n.Dir
		out = append(out, d)
	}
	return out
}

// markedItems is every mark as a path, deepest first: what is inside a
// marked directory goes before it, so a refusal of the directory still
// leaves them acted on.
func (b *browser) markedItems() []item {
	var out []item
	for k, v := range b.marks.set {
		out = append(out, item{names: v.names, name: k.name})
	}
	slices.SortFunc(out, func(x, y item) int {
		if c := len(y.names) - len(x.names); c != 0 {
			return c
		}
		if c := slices.Compare(x.names, y.names); c != 0 {
			return c
		}
		return strings.Compare(x.name, y.name)
	})
	return out
}
