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
	b.ask = &query{title: "Empty file", lines: []shown{
		fitMiddle("Empty "+esc(b.path(name))+"?", max(w-8, 10)),
		textf("Its %s (%s) goes; the file and its name stay, at 0 bytes.", b.cfg.Format(b.sizeOf(n, b.apparent)), b.sizeWord()),
	}, yes: func() {
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
