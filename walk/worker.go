package walk

import (
	"errors"
	"io/fs"
	"syscall"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
)

// worker is one goroutine of a walk and what it keeps from one visit to
// the next.
type worker struct {
	w     *walker
	extra bool // started while visits wait on the disk (IOWorkers): it ends once they are fast again

	l     frd.Lister // lists with the walk's options
	names frd.Lister // lists names only, for a directory whose stats are split across the workers

	entries []frd.Entry // the listing's storage, reused by each visit
	dir     *Dir        // the directory being listed, for the Listers' callbacks
	errs    []error     // the entries of this listing whose stats failed (frd's Lister.Failed)
	listed  int         // entries listed in this visit, for IOWorkers
	run     visitRun    // this worker's visits in a row that waited on the disk, or did not
}

func (w *walker) newWorker(extra bool) *worker {
	k := &worker{w: w, extra: extra}
	for _, l := range []*frd.Lister{&k.l, &k.names} {
		l.ReuseNames = w.opts.Reuse
		l.Failed = k.failed
		if w.opts.ReportVanished {
			l.Vanished = k.vanished
		}
	}
	k.l.Names, k.l.FastStats = w.opts.Names, w.opts.FastStats
	k.names.Names = true
	return k
}

// failed keeps the error of an entry whose stat failed, to be reported
// with the rest of its listing's.
func (k *worker) failed(err error) { k.errs = append(k.errs, err) }

// vanished reports an entry removed between the listing and its stat.
func (k *worker) vanished(name string) {
	p := joinPath(k.dir.Path, name)
	k.w.report(k.dir, p, k.dir.Depth, &fs.PathError{Op: "stat", Path: p, Err: syscall.ENOENT})
}

// loop takes directories from the stack and visits them until the walk is
// over or, for an extra worker, until the stack is empty or its visits
// are fast again. A callback's panic or Goexit ends the walk, to be raised
// again by Dirs.
func (k *worker) loop() {
	w := k.w
	normal := false
	defer func() {
		if !normal {
			// The visit it was in stays counted busy: the walk halts,
			// and no worker of a halted walk waits on the count.
			w.recovered(recover())
		}
	}()
	for {
		n := w.take(k.extra)
		if n == nil {
			normal = true
			return
		}
		var start time.Time
		if w.ioMax > 0 {
			start, k.listed = time.Now(), 0
		}
		k.visit(n)
		w.done()
		if w.ioMax > 0 && k.counted(time.Since(start)) {
			normal = true
			return
		}
	}
}

// visit opens n, lists it part by part (one part, the whole listing,
// unless Options.Batches), hands each part to the DirFunc, and queues the
// subdirectories left in them. The descriptor is closed on every way out,
// a callback's panic included, unless it is kept for the subdirectories
// (and then when n finishes).
func (k *worker) visit(n *node) {
	w := k.w
	if err := w.ctx.Err(); err != nil {
		w.halt(ending{err: err})
		return
	}
	d := &n.dir
	d.Path = pathOf(n)
	fd, err := w.open(n)
	if err != nil {
		// Left out without a word: one removed since its parent was
		// listed, and, under OneFileSystem, another file system's that
		// could not be opened (a mount whose root is closed to the
		// user), as it is when it can.
		if n.parent == nil || !errors.Is(err, fs.ErrNotExist) && !w.elsewhere(d) {
			w.report(d, d.Path, d.Depth, err)
		}
		w.skipped(n)
		w.finish(n, noHandle)
		return
	}
	handed := false // fd given to the Set, or to finish, which closes it
	defer func() {
		// Touch only locals here: once finished, n may be reused.
		if !handed {
			closeHandle(fd)
		}
	}()
	if !w.enter(n, fd) {
		w.skipped(n)
		handed = true
		w.finish(n, fd)
		return
	}
	var subdirs []*node
	for batch := 0; ; batch++ {
		if batch > 0 && w.isHalted() {
			return
		}
		part, done, ok := k.list(n, fd)
		k.entries = part[:0]
		if !ok {
			return
		}
		d.Entries, d.fd, d.Batch, d.More = part, fd, batch, !done
		n.visited = true
		ferr := w.fn(d)
		left := d.Entries // the DirFunc may have removed entries
		d.Entries, d.fd = nil, noHandle
		if ferr == fs.SkipDir {
			subdirs = nil // none walked, and no more read
			break
		}
		if ferr != nil {
			w.halt(ending{err: ferr})
			return
		}
		if w.descends(d) {
			subdirs = append(subdirs, w.children(n, fd, left)...)
		}
		if done {
			break
		}
	}
	handed = true
	w.queue(n, fd, subdirs)
}

// descends reports whether d's subdirectories are walked, by MaxDepth.
func (w *walker) descends(d *Dir) bool {
	return w.opts.MaxDepth <= 0 || d.Depth < w.opts.MaxDepth
}

// queue queues n's subdirectories, keeping n's descriptor fd for them if
// the budget allows, and finishes n's own visit, which closes fd if it
// was not kept.
func (w *walker) queue(n *node, fd handle, subdirs []*node) {
	kept := false
	if len(subdirs) > 0 {
		n.hasSubs = true
		n.unopened.Store(int32(len(subdirs)))
		n.remaining.Add(int32(len(subdirs)))
		if n.parent != nil {
			n.dir.Path = "" // pathOf builds it again for Post: see there
		}
		// Beyond the budget its subdirectories are found again from an
		// open ancestor; the root is always kept.
		kept = w.fds.Keep(&n.fdn, fd, n.parent == nil)
		w.push(subdirs)
	}
	if kept {
		w.finish(n, noHandle) // the Set's now, closed when n finishes
	} else {
		w.finish(n, fd)
	}
}
