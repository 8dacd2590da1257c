package units

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// TestCivilEdges: a stamp keeps its nanoseconds; the years glibc's
// localtime takes end where tm_year (the year - 1900) leaves int, and the
// first and last such year convert while one past either does not.
func TestCivilEdges(t *testing.T) {
	if tm, ok := NewStamp(5, 7).Civil(time.UTC); !ok || tm.Unix() != 5 || tm.Nanosecond() != 7 {
		t.Errorf("5 s 7 ns: %v, %v", tm, ok)
	}
	if tm, ok := NewStamp(0, 0).Civil(time.UTC); !ok || tm.Nanosecond() != 0 {
		t.Errorf("1970: %v, %v", tm, ok)
	}
	for _, c := range []struct {
		year int64 // an int cannot hold them where it has 32 bits
		ok   bool
	}{
		{math.MaxInt32 + 1900, true}, {math.MaxInt32 + 1901, false},
		{math.MinInt32 + 1900, true}, {math.MinInt32 + 1899, false},
	} {
		if strconv.IntSize == 32 {
			break // time.Date takes the year as an int
		}
		first := time.Date(int(c.year), 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		last := time.Date(int(c.year), 12, 31, 23, 59, 59, 0, time.UTC).Unix()
		for _, sec := range []int64{first, last} {
			tm, ok := NewStamp(sec, 0).Civil(time.UTC)
			if ok != c.ok || ok && int64(tm.Year()) != c.year {
				t.Errorf("year %d (%d s): %v, %v; want ok %v", c.year, sec, tm.Year(), ok, c.ok)
			}
		}
	}
}

// TestPosixTZNames: a TZ string Go cannot read is UTC under the name of
// its leading letters when there are three to six of them, as glibc
// names it, else under "UTC".
func TestPosixTZNames(t *testing.T) {
	for tz, want := range map[string]string{
		"AB": "UTC", "ABC": "ABC", "ABCDEF": "ABCDEF", "ABCDEFG": "UTC", "": "UTC",
	} {
		loc, err := time.LoadLocationFromTZData(tz, posixTZif(tz))
		if err != nil {
			t.Fatalf("%q: %v", tz, err)
		}
		if name, off := time.Unix(0, 0).In(loc).Zone(); name != want || off != 0 {
			t.Errorf("TZ=%q: zone %q at %d, want %q at 0", tz, name, off, want)
		}
	}
}
