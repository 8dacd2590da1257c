package du

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sync"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/walk"
)

// sumWalk is one Sum: its total so far, and the errors to report at its end.
type sumWalk struct {
	s     *Scanner
	links *walk.LinkSet

	mu      sync.Mutex
	total   Usage
	counted bool // false once the root was counted already, under an earlier argument
	errs    []Error
	moved   []string
}

// Sum walks the directory root and returns its total, counting each file
// with several links once through links; ok is false when the argument
// prints no line. Errors are reported through errOut when the walk is
// over, in the order du meets them.
func (s *Scanner) Sum(ctx context.Context, root string, links *walk.LinkSet, errOut func(string)) (total Usage, ok bool) {
	w := &sumWalk{s: s, links: links, counted: true}
	defer w.report(root, errOut)
	err := walk.Dirs(ctx, root, s.cfg.WalkOptions(true, w.onError), w.dir)
	switch {
	case len(w.moved) > 0:
		return w.total, false
	case err != nil && w.total.Inodes == 0 && w.counted:
		return w.total, false
	}
	return w.total, w.counted
}

// report prints the errors, which the walk met in no fixed order, in
// du's.
func (w *sumWalk) report(root string, errOut func(string)) {
	SortErrors(root, w.errs)
	for _, e := range w.errs {
		errOut(e.Msg)
	}
	if len(w.moved) > 0 {
		// du stops at the first it meets: the argument prints no line,
		// and no later argument is walked.
		errOut(message.Moved(slices.Min(w.moved)))
		w.s.moved = true
	}
}

// dir adds up one directory's listing, or one part of it.
func (w *sumWalk) dir(d *walk.Dir) error {
	s := w.s
	var local Usage
	if d.Batch == 0 { // the directory itself, with its first part
		d.Data = true
		if w.seen(d.Info.Device, d.Info.FileID, d.Parent == nil) {
			return fs.SkipDir
		}
		local = s.entryUsage(&d.Info, d)
	}
	listed := len(d.Entries)
	s.entries(d, func(*frd.Entry) {},
		func(e *frd.Entry) {
			if s.hashed(e) && !s.cfg.CountLinks && w.links.Seen(e.Device, e.FileID) {
				return
			}
			local.Add(s.entryUsage(e, d))
		})
	s.showProgress(listed, local.Size)
	w.mu.Lock()
	w.total.Add(local)
	w.mu.Unlock()
	return nil
}

// seen reports whether the directory (dev, ino) was counted before, when
// du counts each once; the root seen before prints no line.
func (w *sumWalk) seen(dev, ino uint64, root bool) bool {
	return w.s.cfg.DirsOnce() && w.seenBefore(dev, ino, root)
}

func (w *sumWalk) seenBefore(dev, ino uint64, root bool) bool {
	if !w.links.Seen(dev, ino) {
		return false
	}
	if root {
		w.counted = false
	}
	return true
}

func (w *sumWalk) addError(path, msg string) {
	w.mu.Lock()
	w.errs = append(w.errs, Error{path, msg})
	w.mu.Unlock()
}

func (w *sumWalk) onError(e *walk.Error) error {
	switch {
	case w.s.excludedError(e):
	case errors.Is(e.Err, walk.ErrLoop): // under -L, du leaves a cycle out without a word
	case errors.Is(e.Err, walk.ErrMoved):
		w.mu.Lock()
		w.moved = append(w.moved, e.Path)
		w.mu.Unlock()
	case e.Dir != nil && e.Path == e.Dir.Path:
		w.dirError(e)
	default:
		// An entry that cannot be stat'ed: the walk leaves it out, and
		// du does not count it either.
		w.addError(e.Path, w.s.accessError(e))
	}
	return nil
}

// dirError records the error of a directory not opened, or not read to
// its end; one not opened counts its own size, as du counts it.
func (w *sumWalk) dirError(e *walk.Error) {
	if e.Dir.Data == nil {
		// A link the walk followed to it (-L, or -H for an operand) is
		// counted as the directory, as du does.
		cfg := w.s.cfg
		st, err := stat(cfg, e.Path, cfg.Deref == DerefAll || cfg.Deref == DerefArgs && e.Dir.Parent == nil)
		ok := err == nil
		if ok && w.seen(st.Dev, st.Ino, e.Dir.Parent == nil) {
			return
		}
		if ok {
			w.mu.Lock()
			w.total.Add(st.Use)
			w.mu.Unlock()
		}
	}
	msg := message.CannotReadDir(e.Path, e.Err)
	if unstatable(e) {
		msg = w.s.accessError(e) // as Scan's onError says
	}
	w.addError(e.Path, msg)
}
