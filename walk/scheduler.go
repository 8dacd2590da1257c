package walk

import (
	"container/heap"
	"context"
	"os"
	"sync"
	"sync/atomic"
)

// walker is one walk's shared state: its settings, the stack of
// directories waiting to be visited and the workers' count of what is in
// hand, and how the walk ended. The workers (worker.go) take directories
// from the stack and push the subdirectories they find.
type walker struct {
	ctx      context.Context
	opts     Options // as given, Workers resolved and fitted to RLIMIT_NOFILE
	fn       DirFunc
	rootOpen func() (handle, error) // opens the root instead of its path (DirsFile)

	splitAt int64 // Options.SplitDirSize resolved: 0 never splits
	inParts bool  // each directory passed in parts (Options.Batches, not Sorted)

	mu    sync.Mutex // guards the fields down to first
	cond  sync.Cond  // signalled when the stack grows, or the walk may be over
	stack []*node    // LIFO: depth first, so few directories wait at once; a heap under InOrder (order.go)
	busy  int        // workers visiting a directory
	// why is how the walk ended early: set once by halt (a panic or
	// Goexit takes the place of an error), read by Dirs when it returns.
	why    ending
	halted bool  // why is set: no worker takes another directory
	ended  bool  // Dirs is returning: a late cancellation changes nothing
	first  error // the first error reported, when OnError is nil

	wg       sync.WaitGroup // the workers, extra ones included
	ioMax    int            // Options.IOWorkers, within the descriptors
	ioActive int            // the extra workers running, under mu
	ioNotify chan struct{}  // wakes runIOHook, when OnIOWorkers is set
	hookStop chan struct{}  // closed once the workers have returned: runIOHook passes the last count and ends
	hookDone chan struct{}  // closed by runIOHook as it ends

	freeMu sync.Mutex
	free   []*node // finished nodes, under Options.Reuse

	fds     *fdSet // the descriptors kept open for subdirectories
	rootDev uint64
	links   *LinkSet // under HardLinksOnce
}

// ending is why a walk ended before it was complete: an error (a
// callback's, OnError's, the context's; SkipAll too), or a callback's
// panic with its value, or its runtime.Goexit.
type ending struct {
	err      error
	panicked any
	goexit   bool
}

// start pushes the root and starts the workers, and the goroutine that
// tells OnIOWorkers, if set.
func (w *walker) start(root string) {
	w.cond.L = &w.mu
	rn := &node{fdn: fdNode{Name: root}}
	rn.dir = Dir{Path: root, fd: noHandle}
	rn.remaining.Store(1)
	w.stack = append(w.stack, rn)
	w.startIOHook()
	for range w.opts.Workers {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.newWorker(false).loop()
		}()
	}
}

// wait waits until every worker has returned, cancelling the walk when
// ctx is, then closes what an early end left open.
func (w *walker) wait() {
	stop := context.AfterFunc(w.ctx, func() { w.halt(ending{err: w.ctx.Err()}) })
	w.wg.Wait()
	stop()
	w.stopIOHook()
	w.fds.CloseAll()
}

// halt ends the walk early: no worker takes another directory, a
// directory read in parts reads no more, and Dirs returns why.err, or
// raises why's panic or Goexit again. The first error counts; a panic or
// Goexit counts even after an error, since it must not be lost.
func (w *walker) halt(why ending) {
	w.mu.Lock()
	switch {
	case w.ended:
	case why.panicked != nil || why.goexit:
		if w.why.panicked == nil && !w.why.goexit {
			w.why = why
		}
		w.halted = true
	case !w.halted:
		w.why, w.halted = why, true
	}
	w.mu.Unlock()
	w.cond.Broadcast()
	if h := testHookHalted.Load(); h != nil {
		(*h)(w.ctx)
	}
}

// testHookHalted, set by a test, runs with the walk's context once halt
// has taken effect: no worker takes a directory after it. A walk another
// test left ending may run it too, so it is atomic and told which walk.
var testHookHalted atomic.Pointer[func(context.Context)]

// isHalted reports whether the walk has ended early, halting it first if
// its context is done.
func (w *walker) isHalted() bool {
	if err := w.ctx.Err(); err != nil {
		w.halt(ending{err: err})
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.halted
}

// recovered halts the walk for a callback that panicked with p, or called
// runtime.Goexit (p nil), on a goroutine of the walk's.
func (w *walker) recovered(p any) {
	if p != nil {
		w.halt(ending{panicked: p})
	} else {
		w.halt(ending{goexit: true})
	}
}

// take returns the next directory to visit, counted busy, or nil when the
// walk is over; an extra worker does not wait for one.
func (w *walker) take(extra bool) *node {
	w.mu.Lock()
	for !extra && len(w.stack) == 0 && w.busy > 0 && !w.halted {
		w.cond.Wait()
	}
	if w.halted || len(w.stack) == 0 {
		w.mu.Unlock()
		w.cond.Broadcast()
		return nil
	}
	var n *node
	if w.opts.InOrder {
		n = heap.Pop((*inOrder)(&w.stack)).(*node)
	} else {
		n = w.stack[len(w.stack)-1]
		w.stack[len(w.stack)-1] = nil
		w.stack = w.stack[:len(w.stack)-1]
	}
	w.busy++
	w.mu.Unlock()
	return n
}

// done counts a visit ended; the last, with nothing left on the stack,
// wakes the workers waiting so that they return.
func (w *walker) done() {
	w.mu.Lock()
	w.busy--
	over := w.busy == 0 && len(w.stack) == 0
	w.mu.Unlock()
	if over {
		w.cond.Broadcast()
	}
}

// push queues subdirectories, the first of the listing to be taken first.
func (w *walker) push(subs []*node) {
	w.mu.Lock()
	if w.opts.InOrder {
		for i, c := range subs {
			c.rank = int32(i)
			heap.Push((*inOrder)(&w.stack), c)
		}
	} else {
		for i := len(subs) - 1; i >= 0; i-- {
			w.stack = append(w.stack, subs[i])
		}
	}
	w.mu.Unlock()
	if len(subs) == 1 {
		w.cond.Signal()
	} else {
		w.cond.Broadcast()
	}
}

// finish ends one piece of n's work: its own visit or a subdirectory's
// subtree. The last one runs Post for n and finishes n's share of its
// parent.
//
// fd, unless noHandle, is n's open directory, which finish closes. From
// it the walk goes back up through "..", each step checked to reach the
// directory it left (dirfd.Up), to what needs a directory's descriptor
// again once a subtree is done: a parent for the check of a move
// (DetectMoves), and the directory near where finishing stops that has
// subdirectories left to open, its descriptor having made way for deeper
// ones. Found again by names from the nearest descriptor kept above,
// each would cost an open per level in between: d²/2 for a chain d deep.
func (w *walker) finish(n *node, fd handle) {
	c := climb{fd: fd, own: fd}
	defer func() { closeHandle(c.own) }()
	var waiting *node
	if fd != noHandle {
		if waiting = w.waiting(n); waiting == nil && !w.opts.DetectMoves {
			c.fd = noHandle
		}
	}
	for n != nil {
		if waiting != nil && waiting.dir.Depth > n.dir.Depth {
			waiting = nil // passed: it finished meanwhile, as a guess allows
		}
		if waiting != nil && n.remaining.Load() > 1 {
			w.keepFor(&c, n, waiting)
			waiting = nil
		}
		if n.remaining.Add(-1) != 0 {
			return
		}
		if n.hasSubs && (w.opts.DetectMoves || n.visited && w.opts.Post != nil) {
			n.dir.Path = pathOf(n) // dropped while its subdirectories were walked
		}
		if n.parent != nil && n.fdn.Kept() {
			// Its descriptor, kept for its subdirectories, goes with it:
			// n's own for the climb.
			if k := w.fds.Take(&n.fdn); k != noHandle {
				c.set(k, false)
			}
		}
		if c.child && n.parent != nil {
			c.step(n) // before n is released: its identity checks the step
		}
		c.child = true // fd is n's: a subdirectory's of the parent
		if n.hasSubs && w.opts.DetectMoves && n.parent != nil {
			moved, pfd := movedUp(&n.fdn, c.fd, n.dir.Path, n.dev, n.ino, n.parent.dev, n.parent.ino)
			c.set(pfd, false)
			if moved {
				err := &os.PathError{Op: "walk", Path: n.dir.Path, Err: ErrMoved}
				if !w.report(&n.dir, n.dir.Path, n.dir.Depth, err) {
					return
				}
			}
		}
		if n.visited && w.opts.Post != nil {
			if err := w.opts.Post(&n.dir); err != nil {
				w.halt(ending{err: err})
				return
			}
		}
		parent := n.parent
		if parent != nil {
			n.dir.Path = "" // a finished node may stay reachable, through a Parent
		}
		if w.opts.Reuse && parent != nil {
			// Done: no subdirectory is left to read it through Parent,
			// and its descriptor, if kept, was taken above.
			w.release(n)
		}
		n = parent
	}
}

// climb is the descriptor finish carries up the tree.
type climb struct {
	fd    handle // the directory reached, or noHandle
	own   handle // the descriptor held, to close
	child bool   // fd is a subdirectory's of the node being finished, not its own
}

// step moves the climb up from a subdirectory of to, to to.
func (c *climb) step(to *node) {
	if c.fd != noHandle {
		c.fd = upTo(c.fd, to.dev, to.ino)
		closeHandle(c.own)
		c.own = c.fd
	}
}

// set makes fd the climb's, closing the one it held.
func (c *climb) set(fd handle, child bool) {
	closeHandle(c.own)
	c.own, c.fd, c.child = fd, fd, child
}

// keepFor climbs from n, where finishing stops, to waiting, the directory
// above that waits for a descriptor, and keeps it there.
func (w *walker) keepFor(c *climb, n, waiting *node) {
	if c.child {
		c.step(n)
		c.child = false
	}
	for a := n; a.dir.Depth > waiting.dir.Depth && c.fd != noHandle; a = a.parent {
		c.step(a.parent)
	}
	if c.fd != noHandle && c.fd == c.own && w.fds.Keep(&waiting.fdn, c.fd, false) {
		c.own, c.fd = noHandle, noHandle // the Set's, until waiting finishes
	}
}

// waiting guesses, from counts other workers may change meanwhile, the
// directory that a descriptor found going up from n is worth keeping for:
// where finishing n stops, or within waitReach levels above it, the first
// directory with subdirectories left to open, if it has no descriptor
// kept for them. A wrong guess costs an open too many, or a directory
// found again by names.
func (w *walker) waiting(n *node) *node {
	a := n
	for a != nil && a.remaining.Load() <= 1 {
		a = a.parent // finishing n finishes it
	}
	for d := 0; a != nil && d < waitReach; a, d = a.parent, d+1 {
		if a.unopened.Load() > 0 {
			if a == n || a.fdn.Kept() {
				return nil // n's descriptor is its caller's; a kept one will do
			}
			return a
		}
	}
	return nil
}

// waitReach bounds how far above where finishing stops waiting looks,
// and so the opens of a climb to it.
const waitReach = 64

// report hands err to OnError, or keeps the first; it returns false when
// the walk must end.
func (w *walker) report(d *Dir, path string, depth int, err error) bool {
	e := &Error{Path: path, Depth: depth, Err: err, Dir: d}
	if w.opts.OnError == nil {
		if w.opts.Reuse {
			e.Dir = nil // its storage will be reused before Dirs returns
		}
		w.mu.Lock()
		if w.first == nil {
			w.first = e
		}
		w.mu.Unlock()
		return true
	}
	if rerr := w.opts.OnError(e); rerr != nil {
		w.halt(ending{err: rerr})
		return false
	}
	return true
}
