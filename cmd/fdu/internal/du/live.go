package du

import (
	"context"
	"sync"
	"time"

	"github.com/pbednarcik/flexreaddir/walk"
)

// Live is a scan the report reads while it runs, so that what it has
// printed can go: a directory is read once its listing is whole, and let
// go (Release) once its subtree is reported. The report then holds the
// directories between the one it prints and those the walk is in, not
// the tree.
type Live struct {
	mu      sync.Mutex
	cond    sync.Cond
	over    bool // the walk returned
	err     error
	cancel  context.CancelFunc
	held    int  // items listed and not let go
	peak    int  // the most held at once, for the tests
	waiting bool // the report waits for the walk, until ready
	ready   func() bool
	blocked int  // workers held
	passes  int  // how many of them may go one step further
	used    int  // steps taken during this wait of the report's
	steps   int  // how many a wait gives before it waits a while (the workers)
	stale   bool // no news from the walk since the wait gave its last steps
	whole   bool // the report waits for subtrees walked: no worker is held
	stopped bool
}

// liveHeld is how many items (about 60 bytes each, with a name) the walk
// may list ahead of the report: past it, a worker that has walked a
// directory without subdirectories waits while the report prints, so
// that a report slower than the walk (-a prints a line a file) does not
// come to hold the tree.
//
// The walk takes directories in du's order (walk.Options.InOrder), so
// what the report waits for is the next directory taken, or one being
// listed. While the report waits, a worker held may go one step further
// (to its next directory without subdirectories), as one of them may
// hold what the report waits for; a wait gives as many steps as there
// are workers, and more only after liveStale without the walk's news,
// so that a worker does not run on while another lists what the report
// waits for.
var liveHeld = 1 << 14

// liveStale is how long a wait that has given its steps waits before
// giving more: long enough for a listing, short beside a report.
var liveStale = 2 * time.Millisecond

// Streams reports whether a run's report may read its scan live: not when
// a directory may be met twice (several arguments, -L), as then the
// report reads one walk through another path, whenever it meets it.
func (c *Config) Streams() bool { return !c.DirsOnce() && c.Deref != DerefAll }

// ScanLive starts the walk of the directory root and returns its tree at
// once, to be read through l's waits; l.Wait is the walk's end.
func (s *Scanner) ScanLive(ctx context.Context, root string) (*Dir, *Live) {
	ctx, cancel := context.WithCancel(ctx)
	l := &Live{cancel: cancel, steps: max(1, s.cfg.Jobs)}
	l.cond.L = &l.mu
	t := &treeScan{s: s, top: &Dir{}, live: l}
	o := s.cfg.WalkOptions(true, t.onError)
	o.Post = t.post
	// No extra workers: a worker held for the report (listed) looks to
	// the walk like one waiting on the disk, and more would start, each
	// with a listing, to be held in turn.
	o.IOWorkers, o.OnIOWorkers = 0, nil
	// Taken in du's order, the workers list what the report reads next;
	// taken last pushed first, one of them would run through a sibling's
	// subtree while the report waits for another's, and the report would
	// come to hold that subtree.
	o.InOrder = true
	// A subdirectory left out without a word (removed, another file
	// system under -x) is over: the report waits for no more of it.
	o.Skipped = t.skipped
	go func() {
		err := walk.Dirs(ctx, root, o, t.dir)
		l.mu.Lock()
		l.over, l.err = true, err
		l.cond.Broadcast()
		l.mu.Unlock()
	}()
	return t.top, l
}

// listed marks d's listing whole.
func (l *Live) listed(d *Dir) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d.listedAll = true
	l.held += d.items.len()
	l.peak = max(l.peak, l.held)
	l.wake()
}

// walked marks d's subtree walked, and holds the worker while the report
// is behind, when d has no subdirectories: a worker is held once a step
// (a directory taken), not at each directory its climb finishes. Held
// here, after its visit, it holds up nothing the report may wait for but
// what is above d, which a step lets it finish.
func (l *Live) walked(d *Dir, leaf bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d.listedAll, d.done = true, true
	l.wake()
	if !leaf {
		return
	}
	l.blocked++
	for l.held > liveHeld && !l.stopped && !(l.waiting && l.whole) {
		if l.passes > 0 {
			l.passes--
			l.used++
			break
		}
		l.cond.Wait()
	}
	l.blocked--
}

// wake tells the report what the walk did; once what it waits for is
// there, the workers held get no more steps.
func (l *Live) wake() {
	l.stale = false
	if l.waiting && l.ready() {
		l.waiting, l.passes = false, 0
	}
	l.cond.Broadcast()
}

// WaitListed waits until d's listing is whole, or nothing more can come
// of it: its parent's subtree is walked (nil: the root's, the walk's end).
func (l *Live) WaitListed(d, parent *Dir) {
	l.wait(func() bool { return d.listedAll }, parent, nil)
}

// WaitDone waits until d's subtree is walked, or its parent's. While a
// subdirectory of d is still walked (du sorts d by inode: the report
// reads d's subtree only once it is all walked), no worker is held: the
// report prints nothing until then, and holds the subtree anyway.
func (l *Live) WaitDone(d, parent *Dir) {
	l.wait(func() bool { return d.done }, parent, d.subsWalked)
}

// subsWalked reports whether each of d's subdirectories is walked; d is
// listed, and l.mu held.
func (d *Dir) subsWalked() bool {
	for it := range d.items.All() {
		if c := it.Sub(); c != nil && !c.done {
			return false
		}
	}
	return true
}

// wait waits until ready, or the walk's end, or parent's subtree walked.
// If subsWalked (when not nil) says otherwise at first, no worker is held
// meanwhile.
func (l *Live) wait(ready func() bool, parent *Dir, subsWalked func() bool) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ready = func() bool { return ready() || l.over || parent != nil && parent.done }
	l.used = 0
	l.whole = !l.ready() && subsWalked != nil && !subsWalked()
	var timer *time.Timer
	for !l.ready() {
		if l.whole {
			l.waiting = true
			l.cond.Broadcast()
			l.cond.Wait()
			continue
		}
		if l.stale { // nothing from the walk for liveStale: steps again
			l.used = 0
		}
		l.waiting = true
		l.passes = max(0, min(l.blocked, l.steps-l.used))
		if l.passes == 0 && l.blocked > 0 {
			l.stale = true
			if timer == nil {
				timer = time.AfterFunc(liveStale, l.staleWake)
			} else {
				timer.Reset(liveStale)
			}
		}
		l.cond.Broadcast()
		l.cond.Wait()
	}
	if timer != nil {
		timer.Stop()
	}
	l.waiting, l.ready, l.passes, l.stale, l.whole = false, nil, 0, false, false
}

// staleWake wakes a wait after liveStale.
func (l *Live) staleWake() {
	l.mu.Lock()
	l.cond.Broadcast()
	l.mu.Unlock()
}

// Stop ends the walk early (du stops at a directory moved) and waits for it.
func (l *Live) Stop() error {
	l.mu.Lock()
	l.stopped = true
	l.cond.Broadcast()
	l.mu.Unlock()
	l.cancel()
	return l.Wait()
}

// Wait waits for the walk's end and returns its error.
func (l *Live) Wait() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.over {
		l.cond.Wait()
	}
	return l.err
}

// Release lets go of what d holds once its report is printed: its items
// and their names.
func (l *Live) Release(d *Dir) {
	l.mu.Lock()
	l.held -= d.items.len()
	l.cond.Broadcast()
	l.mu.Unlock()
	d.items, d.names, d.cuts = Items{}, nil, nil
}

// ErrorsFrom are d's errors from the i-th on, those met so far: a live
// scan adds to them until d's subtree is walked.
func (d *Dir) ErrorsFrom(i int) []Error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if i >= len(d.errs) {
		return nil
	}
	return d.errs[i:len(d.errs):len(d.errs)]
}
