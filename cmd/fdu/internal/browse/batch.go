package browse

import (
	"context"
	"errors"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/trash"
)

// item is an entry to act on: its directory's names below the root, and
// its name.
type item struct {
	names []string
	name  string
}

// outcome is what became of one item of a batch: err nil when it went.
type outcome struct {
	names []string // its directory's, below the root
	path  string
	size  int64
	where string // where the trash put it
	err   error
}

// askMarked asks once before deleting (or moving to the trash) every
// marked entry, saying how many and how much.
func (b *browser) askMarked(toTrash bool) {
	if why := b.readOnly(); why != "" {
		b.message = why
		return
	}
	items := b.markedItems()
	verb, title := "Delete", shown("Confirm delete")
	if toTrash {
		verb, title = "Move to the trash", "Confirm trash"
	}
	w, _ := b.s.Size()
	lines := []shown{textf("%s %s, %s in all (%s)?", verb, plural(int64(b.marks.count), "marked entry", "marked entries"),
		b.cfg.Format(b.markSize()), b.sizeWord())}
	if len(items) > b.marks.count {
		lines = append(lines, textf("(%d more marked inside marked directories go with them.)", len(items)-b.marks.count))
	}
	for _, it := range items {
		lines = append(lines, fitMiddle(esc(join(b.stack[0].Name, append(it.names[:len(it.names):len(it.names)], it.name))), max(w-8, 10)))
	}
	b.ask = &query{title: title, lines: lines, yes: func() { b.runBatch(items, toTrash) }}
}

// askTrash asks before moving the selected entry to the trash.
func (b *browser) askTrash() {
	if why := b.readOnly(); why != "" {
		b.message = why
		return
	}
	if len(b.marks.set) > 0 {
		b.askMarked(true)
		return
	}
	n := b.selected()
	if n == nil {
		return
	}
	if why := b.ageRefuses(n); why != "" {
		b.message = textf("Not moved to the trash: %s", why)
		return
	}
	w, h := b.s.Size()
	q := "Move " + esc(b.path(n.Name)) + " to the trash?"
	lines := wrap(units(q), max(w-3, 1))
	if len(lines) > h-6 {
		lines = []shown{fitMiddle(q, max(w-3, 1))}
	}
	lines = append(lines, textf("%s (%s): to the trash of its file system", b.cfg.Format(b.sizeOf(n, b.apparent)), b.sizeWord()))
	it := item{names: b.names(), name: n.Name}
	b.ask = &query{title: "Move to the trash", lines: lines, yes: func() { b.runBatch([]item{it}, true) }}
}

// runBatch deletes (or moves to the trash) each item, each checked as a
// single deletion is; a refusal does not stop the others. A summary
// follows: what went, and what was refused and why.
func (b *browser) runBatch(items []item, toTrash bool) {
	var done, refused []outcome
	var gone int64
	for _, it := range items {
		path := join(b.stack[0].Name, append(it.names[:len(it.names):len(it.names)], it.name))
		o := outcome{names: it.names, path: path}
		n := b.cfg.Tree.Find(append(it.names[:len(it.names):len(it.names)], it.name))
		if n != nil {
			o.size = b.sizeOf(n, b.apparent)
		}
		switch why := b.ageRefuses(n); {
		case n == nil:
			o.err = dutree.ErrGone
		case why != "":
			o.err = errors.New(why)
		case toTrash:
			o.err = b.cfg.Tree.Move(context.Background(), it.names, it.name, func(fd int, name string, same func(int, string) error) error {
				where, err := trash.Put(fd, name, path, same)
				o.where = where
				return err
			})
		default:
			sig, err := deleteStoppable(b.cfg.Tree, it.names, it.name)
			if sig != nil {
				b.interrupted = &Interrupted{Signal: sig, Path: path, Err: err, format: b.cfg.Format}
				b.quit = true
				return
			}
			o.err = err
		}
		if o.err == nil {
			done = append(done, o)
			gone += o.size
		} else {
			refused = append(refused, o)
		}
	}
	b.afterChange()
	rescanned := b.rescanChanged(refused)
	b.refresh("")
	verb := "Deleted"
	if toTrash {
		verb = "Moved to the trash"
	}
	lines := []shown{textf("%s: %s (%s). Refused: %d.", verb, plural(int64(len(done)), "entry", "entries"), b.cfg.Format(gone), len(refused))}
	if len(refused) > 0 {
		lines = append(lines, "", "Refused, and left where they are:")
		for _, o := range refused {
			lines = append(lines, "  "+esc(o.path)+": "+esc(reason(o.err, b.cfg.Format)))
		}
		if rescanned > 0 {
			lines = append(lines, textf("The %s holding what changed on disk rescanned: the view is the disk.", plural(int64(rescanned), "directory", "directories")))
		}
	}
	if len(done) > 0 {
		lines = append(lines, "", shown(verb+":"))
		for _, o := range done {
			l := "  " + esc(o.path)
			if o.where != "" {
				l += " -> " + esc(o.where)
			}
			lines = append(lines, l)
		}
	}
	b.window = &window{title: shown(verb), lines: lines}
}

// reason words why an entry was refused.
func reason(err error, format func(int64) string) string {
	var stopped *dutree.StoppedError
	if errors.As(err, &stopped) && stopped.Files+stopped.Dirs > 0 {
		return "stopped after " + string(deletedText(stopped, format, true)) + ": " + stopped.Err.Error() + "; rescan (r) its directory"
	}
	if stopped != nil {
		return stopped.Err.Error()
	}
	return err.Error()
}

// afterChange follows a change of the tree: the marks and the age
// filter's totals counted again.
func (b *browser) afterChange() {
	b.countAge()
	b.recountMarks()
}

// markSize is the marked entries' total in the size shown.
func (b *browser) markSize() int64 {
	if b.apparent {
		return b.marks.asize
	}
	return b.marks.dsize
}

// sizeWord names the size shown.
func (b *browser) sizeWord() string {
	if b.apparent {
		return "apparent size"
	}
	return "disk usage"
}

// rescanChanged scans again each directory holding an entry refused as
// changed on disk since the scan, or stopped part-way, so that the totals
// are the disk's, as a single deletion stopped part-way does; it returns
// how many it scanned.
func (b *browser) rescanChanged(refused []outcome) int {
	seen := map[string]bool{}
	n := 0
	for _, o := range refused {
		var stopped *dutree.StoppedError
		changed := errors.Is(o.err, dutree.ErrChanged) || errors.Is(o.err, dutree.ErrNotEmpty) ||
			errors.As(o.err, &stopped) && stopped.Files+stopped.Dirs > 0
		key := strings.Join(o.names, "/")
		if !changed || seen[key] {
			continue
		}
		seen[key] = true
		msg := b.message
		if b.rescanAt(o.names) {
			n++
		}
		b.message = msg
	}
	return n
}
