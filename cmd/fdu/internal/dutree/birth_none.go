//go:build unix && !darwin && !freebsd && !netbsd

package dutree

import "golang.org/x/sys/unix"

// birth is nothing here: stat gives no birth time (Linux's is statx's),
// and the deletion compares ctimes.
func birth(*unix.Stat_t) (int64, bool) { return 0, false }
