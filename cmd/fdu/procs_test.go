package main

import (
	"runtime"
	"testing"
)

// TestRaisesProcs: GOMAXPROCS is raised while a walk's extra workers run,
// to four times what it was at most, and set back once the last of two
// overlapping walks' workers end, not before.
func TestRaisesProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(before)
	a, b := raisesProcs(30), raisesProcs(1)
	a(1)
	want := min(before+30, 4*before)
	if got := runtime.GOMAXPROCS(0); got != want {
		t.Fatalf("one walk's workers running: GOMAXPROCS %d, want %d", got, want)
	}
	a(5)
	b(1)
	if got := runtime.GOMAXPROCS(0); got != want {
		t.Fatalf("two walks': GOMAXPROCS %d, want %d still", got, want)
	}
	a(0)
	if got := runtime.GOMAXPROCS(0); got != want {
		t.Fatalf("one walk's ended, the other's running: GOMAXPROCS %d, want %d", got, want)
	}
	b(0)
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("both ended: GOMAXPROCS %d, want %d", got, before)
	}
	b(0) // told again: nothing changes
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("told 0 twice: GOMAXPROCS %d, want %d", got, before)
	}
}
