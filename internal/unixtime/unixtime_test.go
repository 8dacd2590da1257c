package unixtime

import (
	"math"
	"math/big"
	"testing"
	"time"
)

// exact is sec*1e9+nsec clamped to int64, computed without overflow.
func exact(sec, nsec int64) int64 {
	v := new(big.Int).Mul(big.NewInt(sec), big.NewInt(1e9))
	v.Add(v, big.NewInt(nsec))
	switch {
	case v.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return math.MaxInt64
	case v.Cmp(big.NewInt(math.MinInt64)) < 0:
		return math.MinInt64
	}
	return v.Int64()
}

func TestNanosEdges(t *testing.T) {
	secs := []int64{0, 1, -1, 1 << 40, loSec - 2, loSec - 1, loSec, loSec + 1, hiSec - 1, hiSec, hiSec + 1, math.MaxInt64, math.MinInt64}
	nsecs := []int64{0, 1, 145224191, 145224192, 854775807, 854775808, 999999999}
	for _, s := range secs {
		for _, ns := range nsecs {
			if got, want := Nanos(s, ns), exact(s, ns); got != want {
				t.Errorf("Nanos(%d, %d) = %d, want %d", s, ns, got, want)
			}
		}
	}
}

func FuzzNanos(f *testing.F) {
	f.Add(int64(math.MaxInt64), int64(0))
	f.Add(int64(loSec-1), int64(145224192))
	f.Fuzz(func(t *testing.T, sec, nsec int64) {
		nsec = (nsec%1e9 + 1e9) % 1e9
		if got, want := Nanos(sec, nsec), exact(sec, nsec); got != want {
			t.Fatalf("Nanos(%d, %d) = %d, want %d", sec, nsec, got, want)
		}
	})
}

func TestFromTime(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want int64
	}{
		{time.Unix(1, 5), 1e9 + 5},
		{time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), math.MaxInt64},
		{time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC), math.MinInt64},
	} {
		if got := FromTime(tc.t); got != tc.want {
			t.Errorf("FromTime(%v) = %d, want %d", tc.t, got, tc.want)
		}
		if Saturated(tc.want) != (tc.want == math.MaxInt64 || tc.want == math.MinInt64) {
			t.Errorf("Saturated(%d) is wrong", tc.want)
		}
	}
}
