package coldprocs

import (
	"runtime"
	"sync"
	"testing"
)

// TestHook: GOMAXPROCS is raised with a walk's extra workers, to
// four times the default at most, and set back once the last of two
// overlapping walks' workers end, not before; a count told twice changes
// nothing.
func TestHook(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	runtime.SetDefaultGOMAXPROCS()
	base := runtime.GOMAXPROCS(0)
	a, b := Hook(), Hook()
	a(1)
	if got := runtime.GOMAXPROCS(0); got != min(base+1, 4*base) {
		t.Fatalf("one worker running: GOMAXPROCS %d, want %d", got, min(base+1, 4*base))
	}
	a(100)
	a(100)
	if got := runtime.GOMAXPROCS(0); got != 4*base {
		t.Fatalf("100 running: GOMAXPROCS %d, want %d", got, 4*base)
	}
	b(1)
	a(0)
	if got := runtime.GOMAXPROCS(0); got != 4*base {
		t.Fatalf("one walk's ended, the other's running: GOMAXPROCS %d, want %d", got, 4*base)
	}
	b(0)
	b(0)
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("both ended: GOMAXPROCS %d, want %d", got, base)
	}
}

// TestHookConcurrent: walks starting and ending their workers at
// once leave GOMAXPROCS at the default, and the count at zero.
func TestHookConcurrent(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	runtime.SetDefaultGOMAXPROCS()
	base := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hook := Hook()
			for i := range 200 {
				hook(i%3 + 1)
				hook(0)
			}
		}()
	}
	wg.Wait()
	if got := runtime.GOMAXPROCS(0); got != base || ioProcs.raised != 0 {
		t.Fatalf("GOMAXPROCS %d (want %d), walks counted raised %d (want 0)", got, base, ioProcs.raised)
	}
}

// TestHookKeepsUsers: a GOMAXPROCS the user set is never changed.
func TestHookKeepsUsers(t *testing.T) {
	t.Setenv("GOMAXPROCS", "3")
	if Hook() != nil {
		t.Error("Hook under GOMAXPROCS=3: a hook, want none")
	}
}

// TestExtra: up to 32 goroutines in all, none more under -j 1, none
// fewer than none, and -j 0 counted as GOMAXPROCS.
func TestExtra(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ jobs, want int }{{1, 0}, {2, 30}, {32, 0}, {64, 0}, {0, max(32-procs, 0)}} {
		if got := Extra(c.jobs); got != c.want {
			t.Errorf("Extra(%d) = %d, want %d", c.jobs, got, c.want)
		}
	}
}
