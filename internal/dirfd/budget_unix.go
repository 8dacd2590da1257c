//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package dirfd

import "golang.org/x/sys/unix"

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

// Plan fits a walk into the descriptors this process has left. A walk of
// workers goroutines, each holding at most perWorker descriptors at once,
// that keeps kept more between listings (0: DefaultKept, negative: none)
// and fixed ones
// for its whole length (its root), needs workers*perWorker + kept + fixed.
// Where RLIMIT_NOFILE leaves less than that, Plan gives fewer workers (at
// least one) and fewer kept descriptors (none, if need be: directories
// are then found again from the root), sharing what is left about
// equally, so the walk slows down rather than fails with EMFILE.
func Plan(workers, kept, perWorker, fixed int) (int, int) {
	if kept == 0 {
		kept = DefaultKept()
	}
	kept = max(kept, 0)
	workers = max(workers, 1)
	lim := limit()
	need := uint64(workers*perWorker + kept + fixed + reserve)
	if 2*need <= lim {
		return workers, kept // plenty, whatever is open already: no count
	}
	avail := int(lim) - countOpen(int(lim)) - reserve - fixed
	share := max(avail/2, 0)
	w := min(workers, max((avail-min(kept, share))/perWorker, 1))
	k := min(kept, max(avail-w*perWorker, 0))
	return w, k
}

// countOpen counts the descriptors open below lim, by asking each: every
// Unix has F_GETFD, not every one has /proc. Plan calls it only when lim
// is small.
func countOpen(lim int) int {
	n := 0
	for fd := range lim {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
			n++
		}
	}
	return n
}

// CountOpen is how many descriptors this process has open below
// RLIMIT_NOFILE's soft limit (at most the first 65,536), for tests that
// check a walk leaves none behind.
func CountOpen() int { return countOpen(int(min(limit(), 1<<16))) }
