//go:build unix && !linux && !darwin && !freebsd && !netbsd

package dutree

import "golang.org/x/sys/unix"

// birth is nothing here: stat gives no birth time, and the deletion
// compares ctimes.
func birth(*unix.Stat_t) (int64, bool) { return 0, false }
