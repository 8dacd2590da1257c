//go:build !linux

package dutree

import "time"

// scanClock is the time now, in ns since 1970. Where file times may be
// stamped from a coarser clock than this one, the deletion's time rule
// compares them with a margin (see exactTimes).
func scanClock() int64 { return time.Now().UnixNano() }
