package walk

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestColdVisit: a visit is cold when it takes more than coldBase plus
// coldPerEntry per entry listed, not when it takes exactly that.
func TestColdVisit(t *testing.T) {
	for _, entries := range []int{0, 1, 10, 1000} {
		limit := coldBase + time.Duration(entries)*coldPerEntry
		if coldVisit(limit, entries) || !coldVisit(limit+1, entries) {
			t.Errorf("%d entries: cold at %v: %v, at 1 ns more: %v; want false, true",
				entries, limit, coldVisit(limit, entries), coldVisit(limit+1, entries))
		}
	}
	if want := 150 * time.Microsecond; coldVisit(want, 10) || !coldVisit(want+1, 10) {
		t.Errorf("10 entries: the limit is not %v", want)
	}
}

// ioTestWalker is a walker whose extra workers, if one starts, take the
// one directory waiting and, the walk cancelled, visit nothing; started
// reports whether one started, once it has ended.
func ioTestWalker(waiting bool) (w *walker, started func() bool) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w = &walker{ctx: ctx, ioMax: 1, ioNotify: make(chan struct{}, 1)}
	w.cond.L = &w.mu
	if waiting {
		w.stack = []*node{{}}
	}
	return w, func() bool {
		w.wg.Wait()
		return len(w.ioNotify) > 0 // told when it started, and when it ended
	}
}

// TestColdVisitsStartExtraWorker: a worker's third cold visit in a row
// starts an extra worker, when a directory is waiting for it; a fast one
// between starts the count again.
func TestColdVisitsStartExtraWorker(t *testing.T) {
	cold, fast := coldBase+1, coldBase
	for _, c := range []struct {
		visits  []time.Duration
		waiting bool
		want    bool
	}{
		{[]time.Duration{cold, cold}, true, false},
		{[]time.Duration{cold, cold, cold}, true, true},
		{[]time.Duration{cold, cold, fast, cold, cold}, true, false},
		{[]time.Duration{cold, cold, cold, cold}, false, false},
	} {
		w, started := ioTestWalker(c.waiting)
		k := w.newWorker(false)
		for _, d := range c.visits {
			if k.counted(d) {
				t.Errorf("%v: a base worker was told to end", c.visits)
			}
		}
		if got := started(); got != c.want {
			t.Errorf("visits %v, a directory waiting %v: an extra worker started %v; want %v", c.visits, c.waiting, got, c.want)
		}
	}
}

// TestFastVisitsEndExtraWorker: an extra worker ends after its eighth
// fast visit in a row, a cold one starting the count again; a base worker
// never does.
func TestFastVisitsEndExtraWorker(t *testing.T) {
	w, _ := ioTestWalker(false)
	k := w.newWorker(true)
	fast := coldBase
	// Three fast visits, a cold one, then fast ones: the eighth of these,
	// visit 12, ends it.
	for i := 1; i <= 4+ioFastToEnd; i++ {
		d := fast
		if i == 4 {
			d = coldBase + 1
		}
		if end := k.counted(d); end != (i == 4+ioFastToEnd) {
			t.Fatalf("visit %d: told to end %v", i, end)
		}
	}
	base := w.newWorker(false)
	for i := range 2 * ioFastToEnd {
		if base.counted(fast) {
			t.Fatalf("a base worker told to end at its fast visit %d", i+1)
		}
	}
}

// TestNoIOHookWithoutExtraWorkers: OnIOWorkers gets no goroutine of its
// own when no extra worker may run.
func TestNoIOHookWithoutExtraWorkers(t *testing.T) {
	w := &walker{opts: Options{OnIOWorkers: func(int) { t.Error("OnIOWorkers called") }}}
	w.startIOHook()
	defer w.stopIOHook()
	if w.hookDone != nil {
		t.Error("a goroutine for OnIOWorkers with IOWorkers 0")
	}
}

// TestExtraWorkerEndsWhenVisitsAreFast: an extra worker times each of its
// visits and ends after eight fast ones in a row, leaving the rest of the
// waiting directories to the base workers. Each of the 100 here fails to
// open at once.
func TestExtraWorkerEndsWhenVisitsAreFast(t *testing.T) {
	w := &walker{ctx: context.Background(), ioMax: 1, fn: func(*Dir) error { return nil }}
	w.cond.L = &w.mu
	w.rootOpen = func() (handle, error) { return noHandle, errors.New("not opened") }
	for range 100 {
		n := &node{}
		n.dir.fd = noHandle
		n.remaining.Store(1)
		w.stack = append(w.stack, n)
	}
	w.newWorker(true).loop()
	if left := len(w.stack); left == 0 || left > 100-ioFastToEnd {
		t.Errorf("the extra worker left %d of 100 directories; want it gone after %d or more of them, before the last", left, ioFastToEnd)
	}
}
