package walk

import "time"

// Extra workers (Options.IOWorkers): a visit is taken as waiting on the
// disk when it takes over coldBase plus coldPerEntry per entry listed, far
// above a cached listing's cost and below one read from a disk; a worker
// starts one after coldToStart such visits in a row (one slow visit may
// be a goroutine descheduled: a few in a row are the disk), and an extra
// worker ends after ioFastToEnd fast visits in a row.
const (
	coldBase     = 100 * time.Microsecond
	coldPerEntry = 5 * time.Microsecond
	coldToStart  = 3
	ioFastToEnd  = 8
)

func coldVisit(d time.Duration, entries int) bool {
	return d > coldBase+time.Duration(entries)*coldPerEntry
}

// visitRun is a worker's count of its visits in a row that waited on the
// disk (cold) and, for an extra worker, of those that did not (fast).
type visitRun struct{ cold, fast int }

// counted counts a visit that took d: a base worker starts an extra one
// after coldToStart cold visits in a row, and an extra worker ends, it
// reports, after ioFastToEnd fast ones.
func (k *worker) counted(d time.Duration) (end bool) {
	r := &k.run
	if coldVisit(d, k.listed) {
		r.cold, r.fast = r.cold+1, 0
		if !k.extra && r.cold >= coldToStart {
			k.w.addIOWorker()
		}
		return false
	}
	r.cold = 0
	if k.extra {
		r.fast++
	}
	return r.fast >= ioFastToEnd
}

// addIOWorker starts an extra worker if the budget allows and there is a
// directory waiting for it.
func (w *walker) addIOWorker() {
	w.mu.Lock()
	ok := w.ioActive < w.ioMax && len(w.stack) > 0 && !w.halted
	if ok {
		w.ioActive++
		w.wg.Add(1) // this worker is counted: the count is not zero
	}
	w.mu.Unlock()
	if ok {
		w.notifyIOHook()
		go func() {
			defer w.wg.Done()
			defer w.endIOWorker()
			w.newWorker(true).loop()
		}()
	}
}

// endIOWorker counts an extra worker ended, however it ended.
func (w *walker) endIOWorker() {
	w.mu.Lock()
	w.ioActive--
	w.mu.Unlock()
	w.notifyIOHook()
}

// startIOHook starts the goroutine that calls Options.OnIOWorkers, when
// it is set and extra workers may run; stopIOHook ends it, once the
// workers have, after it has passed the last count on.
func (w *walker) startIOHook() {
	if w.opts.OnIOWorkers != nil && w.ioMax > 0 {
		w.ioNotify = make(chan struct{}, 1)
		w.hookStop, w.hookDone = make(chan struct{}), make(chan struct{})
		go w.runIOHook()
	}
}

func (w *walker) stopIOHook() {
	if w.hookStop != nil {
		close(w.hookStop)
		<-w.hookDone
	}
}

// notifyIOHook wakes runIOHook, if it runs, to pass on the new count.
func (w *walker) notifyIOHook() {
	if w.ioNotify != nil {
		select {
		case w.ioNotify <- struct{}{}:
		default: // a wake is pending: it will read the newest count
		}
	}
}

// runIOHook calls Options.OnIOWorkers, on a goroutine of its own so that
// a worker never waits for it, with the count of extra workers each time
// it is woken and the count changed, until stopIOHook and the last count
// is passed on. A panic or Goexit in the hook ends the walk as one in a
// DirFunc does.
func (w *walker) runIOHook() {
	defer close(w.hookDone)
	normal := false
	defer func() {
		if !normal {
			w.recovered(recover())
		}
	}()
	last := 0
	pass := func() {
		w.mu.Lock()
		running := w.ioActive
		w.mu.Unlock()
		if running != last {
			last = running
			w.opts.OnIOWorkers(running)
		}
	}
	for {
		select {
		case <-w.ioNotify:
			pass()
		case <-w.hookStop:
			pass()
			normal = true
			return
		}
	}
}
