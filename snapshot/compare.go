package snapshot

import (
	"context"
	"fmt"
	"io"
	"runtime"
)

// CompareOptions configure Compare and CompareSnapshots. The zero value
// (and a nil *CompareOptions) compares every field both sides recorded,
// reads no file, and finds moves within DefaultMoveWindow changes.
type CompareOptions struct {
	// IgnoreChangeTime does not report a change of ctime alone. A rewrite
	// whose modification time was set back then goes unseen.
	IgnoreChangeTime bool
	// IgnoreFileID compares no inode numbers: a file replaced by another
	// of the same name, size and times is then seen by its change time
	// only, and no moves are found.
	IgnoreFileID bool
	// Hash reads a regular file (CompareSnapshots: takes the later
	// snapshot's hash) whose stat cannot tell, racy or changed in its
	// change time alone, and compares it with the hash the snapshot holds:
	// racy entries with a hash are then reported only when changed.
	Hash bool
	// Exclude adds patterns to the snapshot's own (see Options.Exclude).
	Exclude []string
	// Workers is the number of goroutines checking directories against
	// the tree; 0 means GOMAXPROCS.
	Workers int
	// MoveWindow is how many changes are held back while a removal or an
	// addition waits for the other half of a move; 0 means
	// DefaultMoveWindow and a negative value finds no moves. A move whose
	// two paths are farther apart is reported as a removal and an
	// addition. Memory grows with it.
	MoveWindow int
}

// Compare compares the snapshot read from old with the tree rooted at dir
// now and calls fn for each change, in path order (a move at its new
// path's place), with paths relative to dir. A directory whose own stat is
// as the snapshot recorded, on a file system whose directory times are
// kept, and outside the racy window, is not listed again: its entries are
// stat'ed by name (see the package doc).
//
// It returns nil once the whole tree was compared; fn's error, which ends
// it; ctx's error; or an error wrapping ErrFormat for a snapshot that is
// corrupt, truncated or of another version, possibly after changes were
// passed to fn (those were right: nothing is decoded from a block whose
// checksum does not match). What cannot be read now is passed to fn as
// Unreadable, and the compare goes on. Every descriptor it opens is
// closed when it returns.
func Compare(ctx context.Context, old io.Reader, dir string, opts *CompareOptions, fn func(*Change) error) error {
	rd, err := NewReader(old)
	if err != nil {
		return err
	}
	c, err := newComparer(ctx, rd, nil, opts, fn)
	if err != nil {
		return err
	}
	return c.runTree(dir)
}

// CompareSnapshots compares two snapshots of one tree, old and then cur,
// as Compare compares a snapshot with the tree, calling fn for each
// change in path order. The fields compared are those both recorded; a
// racy entry of old is told apart by the two snapshots' hashes under
// opts.Hash, when both hold one.
func CompareSnapshots(ctx context.Context, old, cur io.Reader, opts *CompareOptions, fn func(*Change) error) error {
	rd, err := NewReader(old)
	if err != nil {
		return err
	}
	rc, err := NewReader(cur)
	if err != nil {
		return err
	}
	c, err := newComparer(ctx, rd, rc, opts, fn)
	if err != nil {
		return err
	}
	return c.runSnapshots()
}

func newComparer(ctx context.Context, rd, rc *Reader, opts *CompareOptions, fn func(*Change) error) (*comparer, error) {
	var o CompareOptions
	if opts != nil {
		o = *opts
	}
	h := rd.Header()
	keys := h.Keys
	if rc != nil {
		keys &= rc.Header().Keys
	}
	ex, err := newExcluder(append(append([]string(nil), h.Exclude...), o.Exclude...))
	if err != nil {
		return nil, err
	}
	c := &comparer{ctx: ctx, opts: o, rd: rd, rc: rc, ex: ex, fn: fn}
	rd.recycling()
	if rc != nil {
		rc.recycling()
	}
	c.head = h
	c.rules = rules{head: &c.head, keys: keys, ignoreCtim: o.IgnoreChangeTime, ignoreIno: o.IgnoreFileID, hash: o.Hash}
	window := o.MoveWindow
	if window == 0 {
		window = DefaultMoveWindow
	}
	c.mv = newMover(window, &c.rules, c.send)
	if c.opts.Workers <= 0 {
		c.opts.Workers = runtime.GOMAXPROCS(0)
	}
	return c, nil
}

// send passes a change to fn, unless ctx is done.
func (c *comparer) send(ch *Change) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	return c.fn(ch)
}

// orphan is the error for a directory of a snapshot that its parent does
// not list as a directory.
func orphan(path string) error {
	return fmt.Errorf("%w: directory %q is not a directory of its parent", ErrFormat, path)
}
