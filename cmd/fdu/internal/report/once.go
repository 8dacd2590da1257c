package report

import (
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/walk"
)

// once decides what du counts once across all the arguments, the first
// time its order meets it: a directory, and a file with several links
// (every file, when du hashes all), by device and inode through the
// hard-link set, unless -l counts them again.
type once struct {
	cfg   *du.Config
	links *walk.LinkSet
}

func newOnce(cfg *du.Config) once { return once{cfg, walk.NewLinkSet()} }

// countsArg reports whether du counts st, a command-line file, here.
func (o *once) countsArg(st du.Stat) bool {
	return !o.cfg.FileOnce(st.Nlink) || !o.links.Seen(st.Dev, st.Ino)
}

// countsDir reports whether du counts the directory n here.
func (o *once) countsDir(n *du.Dir) bool {
	if !o.cfg.DirsOnce() {
		return true
	}
	return !o.links.Seen(n.ID())
}

// countsFile reports whether du counts it, a file of n, here.
func (o *once) countsFile(n *du.Dir, it *du.Item) bool {
	return !it.Hashed() || o.cfg.CountLinks || o.firstLink(n, it)
}

// firstLink reports whether it, a file of n, is met for the first time.
func (o *once) firstLink(n *du.Dir, it *du.Item) bool {
	dev, ino, _ := n.LinkID(it)
	return !o.links.Seen(dev, ino)
}
