package report

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
)

// Views are fdu's views beyond du: a tree of the largest entries (as dust
// and gdu show it), JSON for scripts, and the largest files. They read
// the scanned trees as du's report does, with the same hard-link rule,
// once all the arguments are scanned.
type Views struct {
	cfg  *Config
	s    *du.Scanner
	msgs Messages
	once once

	roots   []entry
	totals  map[*du.Dir]total // each directory counted, as met: its total
	skipped map[*du.Item]bool // files met before through another hard link
	files   []fileSize        // every file counted, for --largest
}

// entry is what a view shows of a file, or of a directory and its total.
type entry struct {
	name         string
	size, inodes uint64
	dir          *du.Dir // the directory as met (Walked has its entries), or nil
	failed       bool    // the directory, or an entry in it, could not be read
}

type total struct{ size, inodes uint64 }

func (t *total) add(u total) {
	t.size += u.size
	t.inodes += u.inodes
}

type fileSize struct {
	path string
	size uint64
}

// ScanViews scans the arguments for cfg's view, reporting their errors.
func ScanViews(ctx context.Context, cfg *Config, s *du.Scanner, args []du.Arg, msgs Messages) *Views {
	v := &Views{cfg: cfg, s: s, msgs: msgs, once: newOnce(s.Config()),
		totals: map[*du.Dir]total{}, skipped: map[*du.Item]bool{}}
	eachArg(ctx, s, args, msgs.Error, v)
	return v
}

// done is false: only a sum stops at a directory moved while walked, and
// a view scans every directory whole.
func (v *Views) done() bool { return false }

func (v *Views) fileArg(a du.Arg) {
	if !v.once.countsArg(a.Stat) {
		return
	}
	v.roots = append(v.roots, entry{name: a.Path, size: a.Stat.Use.Size, inodes: 1})
	v.files = append(v.files, fileSize{a.Path, a.Stat.Use.Size})
}

// dirArg scans a directory argument and reports its errors in du's
// order, all at once: a view prints nothing before the scans are over.
func (v *Views) dirArg(ctx context.Context, a du.Arg) {
	tree := scanArg(ctx, v.s, a, v.msgs.Error)
	errs := tree.SubtreeErrors()
	du.SortErrors(a.Path, errs)
	for _, e := range errs {
		v.msgs.Error(e.Msg)
	}
	if t, ok := v.count(tree, a.Path); ok {
		v.roots = append(v.roots, dirEntry(tree, a.Path, t))
	}
}

// count adds up the directory n, met at path, with everything below it,
// and decides which of its files count: a file with several links where
// du's order meets it first. It returns n's total; ok is false when n is
// not counted at all (never reached, or met before).
func (v *Views) count(n *du.Dir, path string) (t total, ok bool) {
	if n.State() == du.Unreached || !v.once.countsDir(n) {
		return t, false
	}
	w := n.Walked()
	own, files := w.Own(), w.FilesSum()
	t = total{own.Size + files.Size, own.Inodes + files.Inodes}
	prefix := strings.TrimSuffix(path, "/")
	items := w.Items()
	for it := range items.All() {
		name := w.Name(it)
		if c := it.Sub(); c != nil {
			if ct, ok := v.count(c, prefix+"/"+name); ok {
				t.add(ct)
			}
			continue
		}
		if !v.once.countsFile(w, it) {
			v.skipped[it] = true
			continue
		}
		size := it.Use().Size
		t.add(total{size, 1})
		if name != "" && v.cfg.View == LargestView {
			v.files = append(v.files, fileSize{prefix + "/" + name, size})
		}
	}
	v.totals[n] = t
	return t, true
}

func dirEntry(n *du.Dir, name string, t total) entry {
	return entry{name: name, size: t.size, inodes: t.inodes, dir: n, failed: n.Walked().Failed()}
}

// children are the entries the directory e shows, in its listing's
// order: its subdirectories counted, and its files counted and named.
func (v *Views) children(e entry) []entry {
	if e.dir == nil {
		return nil
	}
	w := e.dir.Walked()
	var kids []entry
	items := w.Items()
	for it := range items.All() {
		name := w.Name(it)
		if c := it.Sub(); c != nil {
			if t, ok := v.totals[c]; ok {
				kids = append(kids, dirEntry(c, name, t))
			}
			continue
		}
		if name != "" && !v.skipped[it] {
			kids = append(kids, entry{name: name, size: it.Use().Size, inodes: 1})
		}
	}
	return kids
}

// value is what a view sorts and shows: bytes, or inodes under --inodes.
func (v *Views) value(e entry) uint64 {
	if v.cfg.Inodes {
		return e.inodes
	}
	return e.size
}

// Print prints the view on out.
func (v *Views) Print(out io.Writer) {
	switch v.cfg.View {
	case JSONView:
		if err := v.printJSON(out); err != nil {
			v.msgs.Error(err.Error())
		}
	case LargestView:
		printLargest(v.cfg, out, v.files, v.cfg.Largest)
	case TreeView:
		t := &treeView{v: v, out: out, width: terminalWidth(out), colour: isTerminal(out) && os.Getenv("NO_COLOR") == ""}
		t.print(v.roots)
	}
}
