package snapshot

import (
	"testing"
	"time"
)

// TestRacy: an entry is racy when its modification or change time is not
// older than the snapshot's start by the file system's granularity and
// the clock's step.
func TestRacy(t *testing.T) {
	h := &Header{Start: 100 * int64(time.Second), ClockStep: 4 * time.Millisecond}
	ns := &Device{Granularity: time.Nanosecond}
	fat := &Device{Granularity: 2 * time.Second}
	sec := int64(time.Second)
	ms := int64(time.Millisecond)
	for _, tc := range []struct {
		dev        *Device
		mtime, ctm int64
		want       bool
	}{
		{ns, 99 * sec, 99 * sec, false},
		{ns, h.Start - 4*ms - 1, h.Start - 5*ms, false}, // exactly at the limit
		{ns, h.Start - 4*ms, 0, true},
		{ns, 0, h.Start - 3*ms, true},
		{ns, h.Start + sec, 0, true}, // ahead of the start
		{fat, 97 * sec, 97 * sec, false},
		{fat, 98*sec - 4*ms, 0, false},
		{fat, 98*sec - 4*ms + 1, 0, true},
		{fat, 0, 99 * sec, true},
	} {
		e := &Entry{ModTime: tc.mtime, ChangeTime: tc.ctm}
		if got := racy(h, tc.dev, e); got != tc.want {
			t.Errorf("granularity %v, mtime %d, ctime %d: racy %v, want %v", tc.dev.Granularity, tc.mtime, tc.ctm, got, tc.want)
		}
	}
}
