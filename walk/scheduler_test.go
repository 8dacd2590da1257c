package walk

import (
	"context"
	"testing"
	"time"
)

// The shared stack of directories, on its own: no directory is opened.

func newTestWalker() *walker {
	w := &walker{ctx: context.Background()}
	w.cond.L = &w.mu
	return w
}

// takeAsync takes a directory on a goroutine of its own, as a worker
// waiting for one does.
func takeAsync(w *walker) <-chan *node {
	c := make(chan *node, 1)
	go func() { c <- w.take(false) }()
	return c
}

// settle gives the goroutines just started time to wait in take.
func settle() { time.Sleep(20 * time.Millisecond) }

// taken fails unless c delivers a directory (nil: the walk over) in time.
func taken(t *testing.T, w *walker, c <-chan *node, what string) *node {
	t.Helper()
	select {
	case n := <-c:
		return n
	case <-time.After(5 * time.Second):
		w.halt(ending{}) // lets the waiting goroutine go
		t.Fatalf("%s: still waiting after 5 s", what)
		return nil
	}
}

// notYet fails if c has delivered.
func notYet(t *testing.T, c <-chan *node, what string) {
	t.Helper()
	select {
	case n := <-c:
		t.Fatalf("%s: take returned %v; want it waiting", what, n)
	default:
	}
}

// TestTakeWaitsWhileVisiting: a worker that finds the stack empty waits
// while another visits a directory, which may push subdirectories, and
// returns nil, the walk over, once the last visit has ended with nothing
// pushed.
func TestTakeWaitsWhileVisiting(t *testing.T) {
	w := newTestWalker()
	w.push([]*node{{}})
	if w.take(false) == nil {
		t.Fatal("take found nothing")
	}
	c := takeAsync(w)
	settle()
	notYet(t, c, "a directory in hand elsewhere")
	sub := &node{}
	w.push([]*node{sub})
	if n := taken(t, w, c, "after a push"); n != sub {
		t.Fatalf("took %p; want the directory pushed, %p", n, sub)
	}
	c = takeAsync(w)
	settle()
	w.done()
	settle()
	notYet(t, c, "one of two visits ended")
	w.done()
	if n := taken(t, w, c, "after the last visit ended"); n != nil {
		t.Fatalf("took %p once the walk was over; want nil", n)
	}
}

// TestPushWakesEveryWaitingWorker: subdirectories pushed at once go to as
// many workers waiting, at once, not to one while the others sleep on.
func TestPushWakesEveryWaitingWorker(t *testing.T) {
	w := newTestWalker()
	w.push([]*node{{}})
	w.take(false)
	a, b := takeAsync(w), takeAsync(w)
	settle()
	w.push([]*node{{}, {}})
	if taken(t, w, a, "first waiting worker") == nil || taken(t, w, b, "second waiting worker") == nil {
		t.Fatal("a waiting worker took nothing")
	}
}
