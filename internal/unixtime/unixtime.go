// Package unixtime converts a file time in seconds and nanoseconds to the
// int64 Unix nanoseconds frd.Entry holds, saturating rather than wrapping:
// file systems keep times far outside the years 1678 to 2262 that int64
// nanoseconds can hold (btrfs and XFS take 2^63-1 seconds), and a wrapped
// time would be a wrong time with no sign of it.
package unixtime

import (
	"math"
	"time"
)

// The seconds whose every nanosecond fits in an int64.
const (
	loSec int64 = math.MinInt64 / 1_000_000_000 // -9223372036: loSec*1e9 + 0..999999999 fits
	hiSec int64 = math.MaxInt64 / 1_000_000_000 // 9223372036: hiSec*1e9 + 0..854775807 fits
)

// Nanos is sec seconds and nsec nanoseconds (0 <= nsec < 1e9) after the
// Unix epoch as nanoseconds, math.MaxInt64 for any later time and
// math.MinInt64 for any earlier one.
func Nanos(sec, nsec int64) int64 {
	if sec > loSec && sec < hiSec {
		return sec*1e9 + nsec
	}
	switch {
	case sec == hiSec && nsec <= math.MaxInt64-hiSec*1e9:
		return hiSec*1e9 + nsec
	case sec >= hiSec:
		return math.MaxInt64
	case sec == loSec:
		return loSec*1e9 + nsec
	case sec == loSec-1 && nsec-1e9 >= math.MinInt64-loSec*1e9:
		return loSec*1e9 + (nsec - 1e9)
	}
	return math.MinInt64
}

// FromTime is t as Nanos gives it: time.Time.UnixNano's result is undefined
// outside the int64 range.
func FromTime(t time.Time) int64 {
	return Nanos(t.Unix(), int64(t.Nanosecond()))
}

// Saturated reports whether ns may stand for a time Nanos could not hold,
// so that its exact seconds have to be read from the file again.
func Saturated(ns int64) bool {
	return ns == math.MaxInt64 || ns == math.MinInt64
}
