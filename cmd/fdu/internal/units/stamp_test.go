package units

import (
	"math"
	"testing"
	"time"
)

// FuzzPosixTZ: whatever TZ holds, its zone loads and formats a time
// without a panic, and a string Go cannot read is UTC.
func FuzzPosixTZ(f *testing.F) {
	for _, s := range []string{"PST8", "PST8PDT,M3.2.0,M11.1.0", "XXXYYY-12:30", "<+0330>-3:30", "bogus", "", "\n", "A\x00B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tz string) {
		loc, err := time.LoadLocationFromTZData(tz, posixTZif(tz))
		if err != nil {
			t.Fatalf("%q: %v", tz, err)
		}
		_ = time.Unix(16362611, 0).In(loc).Format(time.RFC3339)
	})
}

// TestStampOrder: the zero stamp is older than any time, 1970 included;
// times far past int64 nanoseconds compare by their seconds.
func TestStampOrder(t *testing.T) {
	none, epoch, before := Stamp{}, NewStamp(0, 0), NewStamp(-1, 999999999)
	far := NewStamp(math.MaxInt64, 0)
	for _, c := range []struct {
		a, b Stamp
		want bool
	}{
		{epoch, none, true}, {before, none, true}, {none, before, false}, {epoch, before, true},
		{far, epoch, true}, {epoch, far, false}, {NewStamp(5, 2), NewStamp(5, 1), true}, {epoch, epoch, false},
	} {
		if got := c.a.After(c.b); got != c.want {
			t.Errorf("%+v.After(%+v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if _, ok := far.Civil(time.UTC); ok {
		t.Error("2^63-1 seconds converted to a civil time; localtime cannot")
	}
	if tm, ok := before.Civil(time.UTC); !ok || tm.Year() != 1969 {
		t.Errorf("one nanosecond before 1970: %v, %v", tm, ok)
	}
}
