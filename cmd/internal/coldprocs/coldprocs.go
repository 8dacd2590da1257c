// Package coldprocs raises GOMAXPROCS while a walk's extra workers wait
// on the disk, for the commands, which own their processes.
package coldprocs

import (
	"os"
	"runtime"
	"sync"
)

// Extra is walk's IOWorkers for a command's -j N (0: GOMAXPROCS): while
// the disk is read, up to 32 goroutines in all, for more outstanding reads
// than CPUs (BENCHMARKS.md, "fdu cold: caches dropped"); -j 1 keeps to one goroutine.
func Extra(jobs int) int {
	if jobs == 1 {
		return 0
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	return max(32-jobs, 0)
}

// ioProcs is what the walks' Hook functions share, since walks may
// overlap (a rescan beside a scan in fdu -i).
var ioProcs struct {
	sync.Mutex
	raised int // walks whose extra workers are running
	base   int // GOMAXPROCS before the first of them raised it
	procs  int // what they raised it to
}

// Hook makes walk's OnIOWorkers for one walk with extra workers: while
// any run, GOMAXPROCS is raised by their number, to four times what it
// was at most, so that they have Ps of their own (Go hands a P on from a
// goroutine blocked in a system call only once its monitor notices, and a
// cold walk's reads then wait one after another); once the last walk's
// end it is set back to the runtime's default. It stays as it was
// otherwise: more Ps than CPUs cost a warm walk the collector's idle
// workers, and past four times the threads that look for work cost more
// than the reads gain (BENCHMARKS.md, "GOMAXPROCS while the disk is read"). A GOMAXPROCS the
// user set is kept: then it returns nil.
func Hook() func(running int) {
	if os.Getenv("GOMAXPROCS") != "" {
		return nil
	}
	up := false // this walk's workers are counted in ioProcs.raised
	return func(running int) {
		ioProcs.Lock()
		defer ioProcs.Unlock()
		switch {
		case running > 0 && !up:
			up = true
			if ioProcs.raised++; ioProcs.raised == 1 {
				ioProcs.base = runtime.GOMAXPROCS(0)
				ioProcs.procs = ioProcs.base
			}
		case running == 0 && up:
			up = false
			if ioProcs.raised--; ioProcs.raised == 0 {
				// The default, not the number: setting one stops the
				// runtime following the CPUs the process may use.
				runtime.SetDefaultGOMAXPROCS()
			}
			return
		}
		if p := min(ioProcs.base+running, 4*ioProcs.base); up && p > ioProcs.procs {
			ioProcs.procs = p
			runtime.GOMAXPROCS(p)
		}
	}
}
