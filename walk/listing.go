package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// testHookSplitListed, set by tests, runs between a split directory's
// listing of names and their stats.
var testHookSplitListed func(path string)

// list reads the next part of n, open as fd: the whole directory, or under
// Options.Batches one kernel buffer (on Linux), its regular files stat'ed
// as frd lists them (unless Names), or, for a directory over
// SplitDirSize, its names first and then the stats across the workers.
// Each entry whose stat fails is reported and left out, the rest kept
// (frd's Lister.Failed); then finishListing. ok is false when OnError
// ended the walk.
func (k *worker) list(n *node, fd handle) (part []frd.Entry, done, ok bool) {
	w, d := k.w, &n.dir
	k.dir, k.errs = d, k.errs[:0]
	split := w.splitAt > 0 && d.Info.Size >= w.splitAt
	l := &k.l
	if split {
		l = &k.names
	}
	var err error
	if w.inParts {
		part, done, err = listPartHandle(l, k.entries[:0], fd, d.Path)
	} else {
		part, err = listHandle(l, k.entries[:0], fd, d.Path)
		done = true
	}
	k.listed += len(part)
	if err != nil {
		d.Err = err
		done = true // the rest cannot be read
	}
	var more []error
	if split {
		if testHookSplitListed != nil {
			testHookSplitListed(d.Path)
		}
		part, more = k.statSplit(part, fd, d.Path)
	}
	if !w.reportAll(d, k.errs) || !w.reportAll(d, more) || err != nil && !w.reportAll(d, []error{err}) {
		return part, done, false
	}
	part, ok = w.finishListing(n, fd, part)
	return part, done, ok
}

// reportAll reports each of errs, met listing d; false when OnError ended
// the walk.
func (w *walker) reportAll(d *Dir, errs []error) bool {
	for _, err := range errs {
		if !w.report(d, errPath(err, d.Path), d.Depth, err) {
			return false
		}
	}
	return true
}

// statSplit stats the regular files of entries, listed by names, across
// Workers goroutines, each with a Lister of its own but the first, which
// is this worker's; the entries kept stay in their order. It returns the
// errors of the entries left out but the first goroutine's, which are the
// worker's (k.errs).
func (k *worker) statSplit(entries []frd.Entry, fd handle, path string) ([]frd.Entry, []error) {
	n := k.w.opts.Workers
	chunk := (len(entries) + n - 1) / n
	if chunk == 0 {
		return entries, nil
	}
	parts := make([][]frd.Entry, n)
	errs := make([][]error, n)
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		lo, hi := min(i*chunk, len(entries)), min((i+1)*chunk, len(entries))
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := frd.Lister{Vanished: k.l.Vanished, Failed: func(err error) { errs[i] = append(errs[i], err) }}
			var err error
			if parts[i], err = statEntries(&own, entries[lo:hi], fd, path); err != nil {
				errs[i] = append(errs[i], err)
			}
		}()
	}
	var err error
	if parts[0], err = statEntries(&k.l, entries[:min(chunk, len(entries))], fd, path); err != nil {
		errs[0] = append(errs[0], err)
	}
	wg.Wait()
	kept := 0
	var all []error
	for i, p := range parts {
		kept += copy(entries[kept:], p)
		all = append(all, errs[i]...)
	}
	return entries[:kept], all
}

// enter stats the open directory n and decides whether to list it: not
// when it is on another file system under OneFileSystem, or is one of its
// own ancestors.
func (w *walker) enter(n *node, fd handle) bool {
	d := &n.dir
	info, dev, ino, err := statHandle(fd)
	if err != nil {
		w.report(d, d.Path, d.Depth, err)
		return false
	}
	info.Name = n.fdn.Name // not a slice of Path: that would keep Path alive
	if n.parent == nil {
		info.Name = filepath.Base(d.Path)
	}
	d.Info, n.dev, n.ino = info, dev, ino
	n.fdn.Identify(dev, ino)
	switch {
	case n.parent == nil:
		w.rootDev = dev
	case w.opts.OneFileSystem && dev != w.rootDev:
		return false
	case n.isLoop():
		w.report(d, d.Path, d.Depth, ErrLoop)
		return false
	}
	return true
}

// elsewhere reports whether d, a directory not opened, is on another file
// system than the root under OneFileSystem, by a stat of its path (not
// through a link, unless the walk follows them: one swapped in since the
// listing is not taken for the directory); its Info then holds that
// device, for Options.Skipped.
func (w *walker) elsewhere(d *Dir) bool {
	if !w.opts.OneFileSystem {
		return false
	}
	dev, ok := devOf(d.Path, w.opts.FollowSymlinks)
	if !ok || dev == w.rootDev {
		return false
	}
	d.Info.Device = dev
	return true
}

// skipped tells Options.Skipped of n, a subdirectory not visited.
func (w *walker) skipped(n *node) {
	if w.opts.Skipped != nil && n.parent != nil {
		w.opts.Skipped(&n.dir)
	}
}

// finishListing stats what StatAll asks of a listing, drops the hard links
// seen before under HardLinksOnce, and sorts under Sorted. It returns false
// when OnError ended the walk.
func (w *walker) finishListing(n *node, fd handle, entries []frd.Entry) ([]frd.Entry, bool) {
	d := &n.dir
	if w.opts.StatAll {
		k := 0 // entries kept; they move down only after one is left out
		for i := range entries {
			e := &entries[i]
			if !e.Type.IsRegular() && !e.Type.IsDir() {
				if err := w.statEntry(n, fd, e); err != nil {
					if !w.report(d, joinPath(d.Path, e.Name), d.Depth, err) {
						return entries, false
					}
					continue // reported, and left out
				}
			}
			if k != i {
				entries[k] = *e
			}
			k++
		}
		entries = entries[:k]
	}
	if w.links != nil {
		entries = slices.DeleteFunc(entries, func(e frd.Entry) bool {
			return e.Links > 1 && e.Type.IsRegular() && w.links.Seen(e.Device, e.FileID)
		})
	}
	if w.opts.Sorted {
		slices.SortFunc(entries, frd.CompareName)
	}
	return entries, true
}

// statEntry fills e's metadata under StatAll: through a symbolic link
// under FollowSymlinks, unless the path from the root would then lead
// through more links than the kernel resolves in one path (du, which
// opens such paths whole, cannot stat it either).
func (w *walker) statEntry(n *node, fd handle, e *frd.Entry) error {
	if w.opts.FollowSymlinks && e.Type&fs.ModeSymlink != 0 && n.links >= maxSymlinks {
		return tooManyLinks(joinPath(n.dir.Path, e.Name))
	}
	return statOther(fd, n.dir.Path, e, w.opts.FollowSymlinks)
}

func tooManyLinks(path string) error {
	return &os.PathError{Op: "stat", Path: path, Err: errTooManyLinks}
}

// joinPath joins a directory's path and an entry's name as the walk
// reports them: filepath.Join without cleaning the root as given.
func joinPath(dir, name string) string { return dirfd.Join(dir, name) }

// errPath is the path an error names: the entry's for an *os.PathError.
func errPath(err error, dir string) string {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path != "" {
		return pe.Path
	}
	return dir
}
