//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package dirfd

import (
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// reserve is what a plan leaves free for the rest of the program: the
// runtime's poller, a file the caller opens meanwhile.
const reserve = 2

// DefaultKept is the default number of directories a walk keeps open
// between listings: a quarter of RLIMIT_NOFILE's soft limit, at least 4
// and at most 1,024.
func DefaultKept() int {
	lim := limit()
	return int(min(max(lim/4, 4), 1024))
}

func limit() uint64 {
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) != nil {
		return 256
	}
	return uint64(rl.Cur) // int64 on FreeBSD
}

// reserved is what the walks running in this process have planned to
// hold, so that walks at once share the limit rather than each plan for
// all of it.
var (
	planMu   sync.Mutex // one plan at a time: each sees the others' reservations
	reserved atomic.Int64
)

// Plan fits a walk into the descriptors this process has left. A walk of
// workers goroutines, each holding at most perWorker descriptors at once,
// that keeps kept more between listings (0: DefaultKept, negative: none)
// and fixed ones for its whole length (its root), needs
// workers*perWorker + kept + fixed. Where RLIMIT_NOFILE, less what is open
// and what other walks in the process have planned, leaves less than
// that, Plan gives fewer workers (at least one) and fewer kept
// descriptors (none, if need be: directories are then found again from
// the root), sharing what is left about equally, so the walk slows down
// rather than fails with EMFILE. The walk calls release when it ends.
func Plan(workers, kept, perWorker, fixed int) (w, k int, release func()) {
	if kept == 0 {
		kept = DefaultKept()
	}
	kept = max(kept, 0)
	workers = max(workers, 1)
	lim := int(min(limit(), 1<<30))
	planMu.Lock()
	defer planMu.Unlock()
	others := int(reserved.Load())
	if open, ok := countOpenFast(lim); ok || mustCount(workers, perWorker, kept, fixed, others, lim) {
		if !ok {
			open = countOpen(min(lim, 1<<12))
		}
		avail := lim - open - others - reserve - fixed
		share := max(avail/2, 0)
		workers = min(workers, max((avail-min(kept, share))/perWorker, 1))
		kept = min(kept, max(avail-workers*perWorker, 0))
	}
	n := int64(workers*perWorker + kept + fixed)
	reserved.Add(n)
	return workers, kept, func() { reserved.Add(-n) }
}

// mustCount reports whether a plan for workers of perWorker descriptors,
// kept and fixed ones, with others planned by other walks, must count what
// is open (asking each descriptor): when twice what it needs, with the
// reserve, is more than the limit.
func mustCount(workers, perWorker, kept, fixed, others, lim int) bool {
	return 2*(workers*perWorker+kept+fixed+reserve+others) > lim
}

// countOpen counts the descriptors open below lim, by asking each: every
// Unix has F_GETFD, not every one has /proc.
func countOpen(lim int) int {
	n := 0
	for fd := range lim {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
			n++
		}
	}
	return n
}
