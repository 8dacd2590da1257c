package browse

import (
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/age"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// ageTotals are a directory's totals over what the age filter shows: its
// own sizes, and the files it keeps at every depth (a hard-linked file
// once); hidden counts the files it leaves out.
type ageTotals struct {
	asize, dsize, items, hidden int64
}

// countAge counts every directory's totals under the age filter, in one
// pass over the tree, into a map beside it; none without a filter.
func (b *browser) countAge() {
	if !b.age.Active() {
		b.ageSums = nil
		return
	}
	b.ageSums = map[*dutree.Dir]ageTotals{}
	root := b.cfg.Tree.Root()
	b.countAgeIn(&root)
}

func (b *browser) countAgeIn(n *dutree.Node) ageTotals {
	t := ageTotals{asize: n.Asize, dsize: n.Dsize}
	for _, k := range n.Dir.Entries() {
		switch {
		case k.Dir != nil:
			sub := b.countAgeIn(&k)
			t.asize, t.dsize = t.asize+sub.asize, t.dsize+sub.dsize
			t.items, t.hidden = t.items+1+sub.items, t.hidden+sub.hidden
		case b.age.Keep(k.Mtime):
			t.items++
			if k.Flags&dutree.LinkSeen == 0 {
				t.asize, t.dsize = t.asize+k.Asize, t.dsize+k.Dsize
			}
		default:
			t.hidden++
		}
	}
	b.ageSums[n.Dir] = t
	return t
}

// shownByAge reports whether the age filter shows n: a directory always,
// a file if its mtime passes.
func (b *browser) shownByAge(n *dutree.Node) bool {
	return n.Dir != nil || b.age.Keep(n.Mtime)
}

// ageRefuses says why n must not be deleted or trashed while the age
// filter is on, or "": what it hides would go unseen with it.
func (b *browser) ageRefuses(n *dutree.Node) string {
	switch {
	case n == nil || !b.age.Active():
		return ""
	case n.Dir == nil && !b.age.Keep(n.Mtime):
		return "hidden by the age filter (" + b.age.String() + "): clear it (F, then an empty line) first"
	case n.Dir != nil && b.ageSums[n.Dir].hidden > 0:
		return "the age filter (" + b.age.String() + ") hides " + plural(b.ageSums[n.Dir].hidden, "file", "files") +
			" in it, which would go unseen: clear it (F, then an empty line) first"
	}
	return ""
}

// askAge prompts for an age filter, the current one to edit; an empty
// line clears it.
func (b *browser) askAge() {
	b.prompt = &prompt{label: "Age filter (max-age=7d min-age=1y since=2024-01-31 until=...; empty: none): ",
		text: []rune(b.age.String()), done: func(s string) {
			f, err := age.ParseWords(s, time.Now(), time.Local)
			if err != nil {
				b.message = textf("Age filter: %v", err)
				return
			}
			b.age = f
			b.afterChange()
			b.refresh("")
		}}
}
