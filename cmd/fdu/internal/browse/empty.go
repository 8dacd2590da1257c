package browse

import (
	"errors"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// askEmpty asks before emptying the selected file in place (its size made
// 0; the file, its name and its links stay).
func (b *browser) askEmpty() {
	if why := b.readOnly(); why != "" {
		b.message = why
		return
	}
	n := b.selected()
	if n == nil {
		return
	}
	if n.Dir != nil || n.Flags&(dutree.Symlink|dutree.NotReg|dutree.Excluded) != 0 {
		b.message = textf("%s: %v", esc(n.Name), dutree.ErrNotRegular)
		return
	}
	w, _ := b.s.Size()
	name, names := n.Name, b.names()
	lines := []shown{
		fitMiddle("Empty "+esc(b.path(name))+"?", max(w-8, 10)),
		textf("Its %s (%s) goes; the file and its name stay, at 0 bytes.", b.cfg.Format(b.sizeOf(n, b.apparent)), b.sizeWord()),
	}
	if n.Nlink > 1 {
		// One inode: its other names, in the tree or outside it (where
		// another user may have made one to a file of root's), empty too.
		lines = append(lines, textf("It has %s, in this tree or elsewhere: they are emptied with it.", plural(int64(n.Nlink)-1, "other link", "other links")))
	}
	b.ask = &query{title: "Empty file", lines: lines, yes: func() {
		err := b.cfg.Tree.Truncate(names, name)
		switch {
		case err == nil:
			b.message = textf("Emptied %s", esc(name))
		case errors.Is(err, dutree.ErrGone):
			b.message = textf("%s: %v", esc(name), err)
		default:
			b.message = textf("Cannot empty %s: %v", esc(name), err)
		}
		b.afterChange()
		b.refresh(name)
	}}
}
