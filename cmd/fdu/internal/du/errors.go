package du

import (
	"errors"
	"io/fs"
	"os"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/walk"
)

// onError records a walk error where the report will print it, in du's
// words.
func (t *treeScan) onError(e *walk.Error) error {
	d := e.Dir
	switch {
	case d == nil: // nowhere to place it (the walk names a directory for every error)
	case t.s.excludedError(e):
	case errors.Is(e.Err, walk.ErrMoved):
		t.nodeOf(d).moved = true // the report stops there, as du does
	case errors.Is(e.Err, walk.ErrLoop) && t.s.cfg.Deref == DerefAll && t.s.cfg.DirsOnce():
		// Under -L a link back to an ancestor is, to du, a directory seen
		// before, or the first way its order meets it when the walk went
		// down another way first: the report decides, as for any
		// directory reached twice.
		t.loopAlias(d)
	case errors.Is(e.Err, walk.ErrLoop):
		// du leaves a cycle out without a word: its node stays Unreached,
		// and the report skips it.
	case unstatable(e):
		// du's fts stats it first and says it cannot access it; it is
		// left out, as its node stays Unreached.
		p := d.Parent.Data.(*Dir)
		p.addError(e.Path, t.s.accessError(e))
	case e.Path == d.Path:
		// The directory itself: not opened, or not read to its end.
		if d.Data == nil {
			t.unreadable(d)
		}
		t.nodeOf(d).addError(e.Path, message.CannotReadDir(e.Path, e.Err))
	default:
		t.nodeOf(d).addError(e.Path, t.s.accessError(e))
	}
	return nil
}

// unreadable makes the node of d, a directory that could not be opened,
// an unreadable one of its own size. Under -L (or -H, for an operand)
// that of the link's target: two links to one unreadable directory are
// one directory, counted and reported once.
func (t *treeScan) unreadable(d *walk.Dir) {
	n := t.nodeOf(d)
	n.state = Unreadable
	cfg := t.s.cfg
	if st, err := stat(cfg, d.Path, cfg.Deref == DerefAll || cfg.Deref == DerefArgs && d.Parent == nil); err == nil {
		n.own, n.dev, n.ino = st.Use, st.Dev, st.Ino
	}
}

func (n *Dir) addError(path, msg string) {
	n.mu.Lock()
	n.errs = append(n.errs, Error{path, msg})
	n.mu.Unlock()
}

// unstatable reports whether e is about a directory below the root that
// could not even be stat'ed: its parent may be read but not searched.
func unstatable(e *walk.Error) bool {
	d := e.Dir
	return e.Path == d.Path && d.Parent != nil && errors.Is(e.Err, fs.ErrPermission) && !canStat(d.Path)
}

// canStat reports whether path can be stat'ed, without following a link.
func canStat(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// excludedError reports whether e is about an entry below a root that
// --exclude leaves out: du says nothing of it, as it matches the name
// before it stats the file (process_file).
func (s *Scanner) excludedError(e *walk.Error) bool {
	return s.cfg.Exclude.HasPatterns() && e.Dir != nil && (e.Path != e.Dir.Path || e.Dir.Parent != nil) &&
		s.cfg.Exclude.Excluded(e.Path)
}

// accessError is du's message for an entry that could not be stat'ed.
func (s *Scanner) accessError(e *walk.Error) string {
	if s.cfg.Deref == DerefAll && errors.Is(e.Err, fs.ErrNotExist) && canStat(e.Path) {
		return message.CannotAccessDangling(e.Path) // as fts reports it
	}
	return message.CannotAccess(e.Path, e.Err)
}
