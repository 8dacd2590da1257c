package main

import (
	"runtime"
	"sync"
)

// ioProcs is what raisesProcs shares between walks that may overlap (a
// rescan beside a scan in fdu -i).
var ioProcs struct {
	sync.Mutex
	raised int // walks whose extra workers are running
	base   int // GOMAXPROCS before the first of them raised it
	procs  int // what they raised it to
}

// raisesProcs is walk's OnIOWorkers for a walk with extra workers: while
// any run, GOMAXPROCS is raised by their budget, to four times what it was
// at most, so that they have Ps of their own (Go hands a P on from a
// goroutine blocked in a system call only once its monitor notices, and a
// cold walk's reads then wait one after another); once they end it is set
// back. It stays as it was otherwise: more Ps than CPUs cost a warm walk
// the collector's idle workers, and past four times the threads that look
// for work cost more than the reads gain (BENCHMARKS.md).
func raisesProcs(extra int) func(running int) {
	up := false
	return func(running int) {
		if running > 0 == up {
			return
		}
		up = running > 0
		ioProcs.Lock()
		defer ioProcs.Unlock()
		if up {
			if ioProcs.raised++; ioProcs.raised == 1 {
				ioProcs.base = runtime.GOMAXPROCS(0)
				ioProcs.procs = 0
			}
			if p := min(ioProcs.base+extra, 4*ioProcs.base); p > ioProcs.procs {
				ioProcs.procs = p
				runtime.GOMAXPROCS(p)
			}
		} else if ioProcs.raised--; ioProcs.raised == 0 {
			runtime.GOMAXPROCS(ioProcs.base)
		}
	}
}
