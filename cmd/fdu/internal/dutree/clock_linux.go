package dutree

import (
	"time"

	"golang.org/x/sys/unix"
)

// scanClock is the time now, in ns since 1970, from the coarse clock the
// kernel stamps file times with: a file made after it is never stamped
// earlier, which the fine clock, a tick ahead of the coarse one, does not
// promise.
func scanClock() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts) != nil {
		return time.Now().UnixNano() - 1e9 // cannot happen; a tick is far less than a second
	}
	return ts.Nano()
}
