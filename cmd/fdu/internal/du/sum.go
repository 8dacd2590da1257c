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

// sum is one Sum: its total so far, and the errors to report at its end.
type sum struct {
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
	m := &sum{s: s, links: links, counted: true}
	defer m.report(root, errOut)
	err := walk.Dirs(ctx, root, s.cfg.WalkOptions(true, m.onError), m.dir)
	switch {
	case len(m.moved) > 0:
		return m.total, false
	case err != nil && m.total.Inodes == 0 && m.counted:
		return m.total, false
	}
	return m.total, m.counted
}

// report prints the errors, which the walk met in no fixed order, in
// du's.
func (m *sum) report(root string, errOut func(string)) {
	SortErrors(root, m.errs)
	for _, e := range m.errs {
		errOut(e.Msg)
	}
	if len(m.moved) > 0 {
		// du stops at the first it meets: the argument prints no line,
		// and no later argument is walked.
		errOut(message.Moved(slices.Min(m.moved)))
		m.s.moved = true
	}
}

// dir adds up one directory's listing, or one part of it.
func (m *sum) dir(d *walk.Dir) error {
	s := m.s
	var local Usage
	if d.Batch == 0 { // the directory itself, with its first part
		d.Data = true
		if m.seen(d.Info.Device, d.Info.FileID, d.Parent == nil) {
			return fs.SkipDir
		}
		local = s.entryUsage(&d.Info, d)
	}
	listed := len(d.Entries)
	s.entries(d, func(*frd.Entry) {},
		func(e *frd.Entry) {
			if s.hashed(e) && !s.cfg.CountLinks && m.links.Seen(e.Device, e.FileID) {
				return
			}
			local.Add(s.entryUsage(e, d))
		})
	s.count(listed, local.Size)
	m.add(local)
	return nil
}

// seen reports whether the directory (dev, ino) was counted before, when
// du counts each once; the root seen before prints no line.
func (m *sum) seen(dev, ino uint64, root bool) bool {
	if !m.s.cfg.DirsOnce() || !m.links.Seen(dev, ino) {
		return false
	}
	if root {
		m.counted = false
	}
	return true
}

func (m *sum) add(u Usage) {
	m.mu.Lock()
	m.total.Add(u)
	m.mu.Unlock()
}

func (m *sum) addError(path, msg string) {
	m.mu.Lock()
	m.errs = append(m.errs, Error{path, msg})
	m.mu.Unlock()
}

func (m *sum) onError(e *walk.Error) error {
	switch {
	case errors.Is(e.Err, walk.ErrLoop): // under -L, du leaves a cycle out without a word
	case errors.Is(e.Err, walk.ErrMoved):
		m.mu.Lock()
		m.moved = append(m.moved, e.Path)
		m.mu.Unlock()
	case e.Dir != nil && e.Path == e.Dir.Path:
		m.dirError(e)
	default:
		// An entry that cannot be stat'ed: the walk leaves it out, and
		// du does not count it either.
		m.addError(e.Path, m.s.accessError(e))
	}
	return nil
}

// dirError records the error of a directory not opened, or not read to
// its end; one not opened counts its own size, as du counts it.
func (m *sum) dirError(e *walk.Error) {
	if e.Dir.Data == nil {
		st, ok := lstat(m.s.cfg, e.Path)
		if ok && m.seen(st.Dev, st.Ino, e.Dir.Parent == nil) {
			return
		}
		if ok {
			m.add(st.Use)
		}
	}
	msg := message.CannotReadDir(e.Path, e.Err)
	if unstatable(e) {
		msg = m.s.accessError(e) // as Scan's onError says
	}
	m.addError(e.Path, msg)
}
