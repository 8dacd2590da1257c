// Package age filters files by their modification time as gdu's
// --max-age, --min-age, --since and --until do: durations of s, m, h, d
// (24h), w (7d), mo (30d) and y (365d), combined (1y2mo); dates as RFC
// 3339 instants, or YYYY-MM-DD for the whole local day.
package age

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Filter keeps the files whose mtime is within all of its bounds. The
// zero Filter keeps everything.
type Filter struct {
	from, to       time.Time // inclusive bounds; zero: none
	hasFrom, hasTo bool
	words          []string // the bounds as given, for the screen
}

// Parse is the filter of gdu's four options (an empty value is no bound),
// the ages counted back from now, the dates read in loc.
func Parse(maxAge, minAge, since, until string, now time.Time, loc *time.Location) (*Filter, error) {
	f := &Filter{}
	for _, o := range []struct {
		name, value string
		set         func(string) error
	}{
		{"max-age", maxAge, func(v string) error {
			d, err := parseDuration(v)
			f.after(now.Add(-d))
			return err
		}},
		{"min-age", minAge, func(v string) error {
			d, err := parseDuration(v)
			f.before(now.Add(-d))
			return err
		}},
		{"since", since, func(v string) error {
			t, _, err := parseTime(v, loc)
			f.after(t)
			return err
		}},
		{"until", until, func(v string) error {
			t, day, err := parseTime(v, loc)
			if day {
				t = t.AddDate(0, 0, 1).Add(-time.Nanosecond) // the whole day
			}
			f.before(t)
			return err
		}},
	} {
		if o.value == "" {
			continue
		}
		if err := o.set(o.value); err != nil {
			return nil, fmt.Errorf("invalid --%s value: %w", o.name, err)
		}
		f.words = append(f.words, o.name+"="+o.value)
	}
	return f, nil
}

// ParseWords reads the browser's prompt: the options' words, such as
// "max-age=7d since=2024-01-01" ("--" before each optional).
func ParseWords(s string, now time.Time, loc *time.Location) (*Filter, error) {
	v := map[string]string{}
	for _, w := range strings.Fields(s) {
		name, value, ok := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		switch name {
		case "max-age", "min-age", "since", "until":
			if ok && value != "" {
				v[name] = value
				continue
			}
		}
		return nil, fmt.Errorf("%q: write max-age=7d, min-age=1y, since=2024-01-31 or until=2024-01-31T12:00:00Z", w)
	}
	return Parse(v["max-age"], v["min-age"], v["since"], v["until"], now, loc)
}

func (f *Filter) after(t time.Time) {
	if !f.hasFrom || t.After(f.from) {
		f.from, f.hasFrom = t, true
	}
}

func (f *Filter) before(t time.Time) {
	if !f.hasTo || t.Before(f.to) {
		f.to, f.hasTo = t, true
	}
}

// Active reports whether f leaves anything out.
func (f *Filter) Active() bool { return f != nil && (f.hasFrom || f.hasTo) }

// Keep reports whether a file of mtime sec (seconds since 1970) passes.
func (f *Filter) Keep(sec int64) bool {
	if !f.Active() {
		return true
	}
	t := time.Unix(sec, 0)
	return !(f.hasFrom && t.Before(f.from.Truncate(time.Second)) || f.hasTo && t.After(f.to))
}

// String is the filter as given: "max-age=7d since=2024-01-01".
func (f *Filter) String() string {
	if f == nil {
		return ""
	}
	return strings.Join(f.words, " ")
}

var durationPart = regexp.MustCompile(`(\d+)(mo|s|m|h|d|w|y)`)

// parseDuration reads gdu's durations: 90m, 2h30m, 7d, 6w, 1y2mo.
func parseDuration(s string) (time.Duration, error) {
	in := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	parts := durationPart.FindAllStringSubmatch(in, -1)
	used := 0
	var total time.Duration
	for _, p := range parts {
		used += len(p[0])
		n, err := strconv.ParseInt(p[1], 10, 32)
		if err != nil {
			return 0, fmt.Errorf("%q: a number too large", s)
		}
		unit := map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour,
			"w": 7 * 24 * time.Hour, "mo": 30 * 24 * time.Hour, "y": 365 * 24 * time.Hour}[p[2]]
		// Past time.Duration's ~292 years a product or sum would wrap to
		// a negative age, turning the filter around.
		if time.Duration(n) > (math.MaxInt64-total)/unit {
			return 0, fmt.Errorf("%q: too long a duration (at most about 292 years)", s)
		}
		total += time.Duration(n) * unit
	}
	if len(parts) == 0 || used != len(in) {
		return 0, fmt.Errorf("%q is no duration: use combinations like 7d, 2h30m, 1y2mo", s)
	}
	return total, nil
}

// parseTime reads an RFC 3339 instant, or a date (day true) at the
// start of that day in loc.
func parseTime(s string, loc *time.Location) (t time.Time, day bool, err error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, false, nil
	}
	if len(s) == 10 {
		if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
			return t, true, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q: use an RFC 3339 time (2024-01-31T12:00:00Z) or a date (2024-01-31)", s)
}
