package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"github.com/pbednarcik/flexreaddir/walk"
)

// Options configure Take. The zero value (and a nil *Options) records
// every key, hashes nothing, and crosses file systems.
type Options struct {
	// Keys is the set of fields recorded; 0 means AllKeys.
	Keys Keys
	// Hash says which regular files are read and hashed (SHA-256), so
	// that a compare can tell a racy file's contents apart: none, the
	// racy ones, or all.
	Hash HashMode
	// Exclude leaves out each entry that matches one of its patterns, and
	// everything below an excluded directory: a pattern with a "/" is
	// matched against the path relative to the root (names joined by "/";
	// a leading "/" anchors it there), one without against the name, by
	// path.Match's syntax. The snapshot
	// keeps the patterns, and a compare leaves out what they match too.
	Exclude []string
	// OneFileSystem leaves out the contents of directories on another file
	// system than the root's (their entries are kept, and a compare
	// reports each as Racy, not read).
	OneFileSystem bool
	// OnError, when set, is called with each directory or entry that could
	// not be read (a *walk.Error); returning nil goes on, a non-nil error
	// ends Take and is returned.
	OnError func(err error) error
}

// ErrIncomplete is wrapped by the error Take returns when it wrote a whole
// snapshot but could not read some directories or entries: a directory
// that could not be read is recorded without contents (a compare reports
// it as possibly changed), an entry that could not be stat'ed is left out.
var ErrIncomplete = errors.New("snapshot: some entries could not be read")

// Take writes a snapshot of the tree rooted at dir to w: every entry's
// path, type and the fields opts.Keys asks for, directory by directory in
// path order, with when it began and the file systems it met.
//
// It returns nil after a complete snapshot; an error wrapping
// ErrIncomplete (and the first error met) when the snapshot is complete
// but some entries could not be read; and otherwise the error that
// stopped it (ctx's, w's, a root that is not a directory), w then holding
// a snapshot cut short that no Reader accepts. It closes every descriptor
// it opened however it ends. Memory is bounded by the entries of the
// directories on one path from the root, not by the tree.
func Take(ctx context.Context, dir string, w io.Writer, opts *Options) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Keys == 0 {
		o.Keys = AllKeys
	}
	ex, err := newExcluder(o.Exclude)
	if err != nil {
		return err
	}
	t := &taker{opts: o, ex: ex, devs: map[uint64]Device{}}
	t.head = Header{Version: version, Start: unixtime.FromTime(time.Now()), ClockStep: clockStep(), Keys: o.Keys, Hash: o.Hash,
		Root: dir, Exclude: o.Exclude}
	bw := newBlockWriter(w)
	t.enc = newEncoder(bw, &t.head, t.device)
	t.prefix = strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator)
	err = walk.Dirs(ctx, dir, &walk.Options{
		Workers: 1, Sorted: true, Names: true, OneFileSystem: o.OneFileSystem,
		OnError: t.walkError,
	}, t.visit)
	if err == nil && bw.err != nil {
		err = bw.err
	}
	if err == nil && t.enc.dirs == 0 {
		// The root could not be read: no snapshot at all.
		err = t.first
		if err == nil {
			err = errors.New("snapshot: the root was not read")
		}
	}
	if err == nil {
		err = t.enc.end()
	}
	if err != nil {
		return err
	}
	if t.first != nil {
		return fmt.Errorf("%w: %w", ErrIncomplete, t.first)
	}
	return nil
}

// taker is one Take's state.
type taker struct {
	opts   Options
	ex     *excluder
	head   Header
	enc    *encoder
	devs   map[uint64]Device // classified file systems
	prefix string            // the root's path and a separator
	first  error             // the first entry or directory not read
	buf    []Entry           // one directory's entries, reused
}

// device is what is known of the device id, classified when first met.
func (t *taker) device(id uint64) Device {
	if d, ok := t.devs[id]; ok {
		return d
	}
	return unknownDevice(id)
}

// walkError keeps or hands on an error of the walk's.
func (t *taker) walkError(e *walk.Error) error {
	if t.first == nil {
		t.first = e
	}
	if t.opts.OnError != nil {
		return t.opts.OnError(e)
	}
	return nil
}

// rel is the walk's path p relative to the root, with "/" between names.
func (t *taker) rel(d *walk.Dir) string {
	if d.Depth == 0 {
		return ""
	}
	return filepath.ToSlash(strings.TrimPrefix(d.Path, t.prefix))
}

// visit records one directory, stat'ing each entry relative to it, and
// leaves in d.Entries the directories to descend into.
func (t *taker) visit(d *walk.Dir) error {
	df := walkDir(d)
	rel := t.rel(d)
	self := Entry{Name: d.Info.Name, Type: fs.ModeDir, FileID: d.Info.FileID, ModTime: d.Info.ModTimeNanos,
		ChangeTime: d.Info.ChangeTimeNanos, Device: d.Info.Device}
	dev, ok := t.devs[self.Device]
	if !ok {
		dev = classifyDir(df, self.Device)
		t.devs[dev.ID] = dev
	}
	entries, subdirs := t.buf[:0], d.Entries[:0]
	for _, fe := range d.Entries {
		path := joinRel(rel, fe.Name)
		if t.ex.excluded(path, fe.Name) {
			continue
		}
		x, err := statAt(df, fe.Name, t.opts.Keys)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed since the listing
			}
			if err := t.walkError(&walk.Error{Path: joinPath(d.Path, fe.Name), Depth: d.Depth + 1, Err: err}); err != nil {
				return err
			}
			entries = append(entries, Entry{Name: fe.Name, Type: fe.Type, Unread: true})
			continue
		}
		t.finish(df, &x, &dev)
		entries = append(entries, x)
		if x.Type.IsDir() {
			subdirs = append(subdirs, fe)
			subdirs[len(subdirs)-1].Type = fs.ModeDir
		}
	}
	t.buf = entries
	d.Entries = subdirs
	return t.enc.dir(rel, &self, dev, entries)
}

// finish hashes x if asked, notes its device if it is a mount point, and
// clears the fields not recorded.
func (t *taker) finish(df dirFile, x *Entry, dev *Device) {
	// Without change times any file may hide a rewrite: all are hashed.
	if x.Type.IsRegular() && (t.opts.Hash == HashAll || t.opts.Hash == HashRacy && (racy(&t.head, dev, x) || !dev.ChangeTimes)) {
		x.Hash = hashAt(df, x)
	}
	if x.Device != dev.ID {
		if _, ok := t.devs[x.Device]; !ok {
			t.devs[x.Device] = classifyAt(df, x.Name, x.Device)
		}
	}
	mask(x, t.opts.Keys)
}

// mask clears the fields keys does not record.
func mask(x *Entry, keys Keys) {
	zeroUnless(keys&KeyMode, &x.Perm)
	zeroUnless(keys&KeySize, &x.Size)
	zeroUnless(keys&KeyModTime, &x.ModTime)
	zeroUnless(keys&KeyChangeTime, &x.ChangeTime)
	zeroUnless(keys&KeyFileID, &x.FileID)
	zeroUnless(keys&KeyLinks, &x.Links)
	zeroUnless(keys&KeyOwner, &x.UID, &x.GID)
	zeroUnless(keys&KeyTarget, &x.Target)
}

// zeroUnless zeroes fields unless kept, a key's bit, is set.
func zeroUnless[T any](kept Keys, fields ...*T) {
	if kept == 0 {
		for _, f := range fields {
			var zero T
			*f = zero
		}
	}
}
