package age

import (
	"strings"
	"testing"
	"time"
)

func TestFilter(t *testing.T) {
	loc := time.FixedZone("X", 3600)
	now := time.Date(2024, 6, 15, 12, 0, 0, 0, loc)
	at := func(s string) int64 {
		tm, err := time.ParseInLocation("2006-01-02 15:04:05", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm.Unix()
	}
	for _, c := range []struct {
		maxAge, minAge, since, until string
		mtime                        string
		keep                         bool
	}{
		{maxAge: "7d", mtime: "2024-06-10 00:00:00", keep: true},
		{maxAge: "7d", mtime: "2024-06-01 00:00:00", keep: false},
		{maxAge: "1w", mtime: "2024-06-08 12:00:00", keep: true},
		{maxAge: "2h30m", mtime: "2024-06-15 09:00:00", keep: false},
		{minAge: "1y", mtime: "2023-06-15 12:00:00", keep: true},
		{minAge: "1y", mtime: "2024-01-01 00:00:00", keep: false},
		{minAge: "1mo", mtime: "2024-05-16 12:00:00", keep: true},
		{since: "2024-06-01", mtime: "2024-06-01 00:00:00", keep: true},
		{since: "2024-06-01", mtime: "2024-05-31 23:59:59", keep: false},
		{until: "2024-06-01", mtime: "2024-06-01 23:59:59", keep: true},
		{until: "2024-06-01", mtime: "2024-06-02 00:00:00", keep: false},
		{since: "2024-06-01T00:00:00Z", mtime: "2024-06-01 00:30:00", keep: false},
		{since: "2024-01-01", until: "2024-01-31", mtime: "2024-01-15 00:00:00", keep: true},
		{since: "2024-01-01", until: "2024-01-31", mtime: "2024-02-15 00:00:00", keep: false},
	} {
		f, err := Parse(c.maxAge, c.minAge, c.since, c.until, now, loc)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Keep(at(c.mtime)); got != c.keep {
			t.Errorf("%+v: Keep = %v", c, got)
		}
	}
	for _, bad := range [][4]string{{"7x", "", "", ""}, {"", "d7", "", ""}, {"", "", "2024-1-1", ""}, {"", "", "", "yesterday"}} {
		if _, err := Parse(bad[0], bad[1], bad[2], bad[3], now, loc); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	f, err := ParseWords("--max-age=7d since=2024-06-01", now, loc)
	if err != nil || f.String() != "max-age=7d since=2024-06-01" || !f.Active() {
		t.Errorf("ParseWords: %v %v", f, err)
	}
	if _, err := ParseWords("7d", now, loc); err == nil {
		t.Errorf("a bare word parsed")
	}
	if f, _ := ParseWords("", now, loc); f.Active() {
		t.Errorf("an empty prompt filters")
	}
}

// TestDurationTooLong: a duration past time.Duration's ~292 years is an
// error, not a wrapped negative age that would turn the filter around
// (max-age=300y hiding every file rather than none).
func TestDurationTooLong(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, v := range []string{"300y", "200y200y", "2147483647y", "106751d1d"} {
		if _, err := Parse(v, "", "", "", now, time.UTC); err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("max-age=%s: %v, want too long", v, err)
		}
	}
	f, err := Parse("290y", "", "", "", now, time.UTC)
	if err != nil || !f.Keep(now.Add(-24*time.Hour).Unix()) {
		t.Errorf("max-age=290y: %v", err)
	}
}
