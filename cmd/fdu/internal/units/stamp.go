package units

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
)

// Stamp is a file time as the file system keeps it, in seconds and
// nanoseconds: du prints times far beyond int64 nanoseconds' 2262.
// The zero Stamp is no time at all, older than any file's.
type Stamp struct {
	sec   int64
	nsec1 int32 // nanoseconds + 1, so that 0 means no time
}

// NewStamp is the time sec seconds and nsec nanoseconds after 1970.
func NewStamp(sec, nsec int64) Stamp { return Stamp{sec: sec, nsec1: int32(nsec) + 1} }

// Seconds is s's seconds since 1970.
func (s Stamp) Seconds() int64 { return s.sec }

// After reports whether a is later than b.
func (a Stamp) After(b Stamp) bool {
	return b.nsec1 == 0 || a.nsec1 != 0 && (a.sec > b.sec || a.sec == b.sec && a.nsec1 > b.nsec1)
}

// FromNanos is a stamp from frd's Unix nanoseconds; ok is false when they
// are saturated, and the file must be stat'ed for its seconds.
func FromNanos(ns int64) (s Stamp, ok bool) {
	if unixtime.Saturated(ns) {
		return Stamp{}, false
	}
	sec, nsec := ns/1e9, ns%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return NewStamp(sec, nsec), true
}

// Civil is s in loc, or false where glibc's localtime fails: a year that
// does not fit struct tm's int.
func (s Stamp) Civil(loc *time.Location) (time.Time, bool) {
	const far = 1 << 56 // seconds: ~2e9 years, past any year localtime takes
	if s.sec > far || s.sec < -far {
		return time.Time{}, false
	}
	t := time.Unix(s.sec, int64(max(s.nsec1-1, 0))).In(loc)
	if y := int64(t.Year()) - 1900; y > math.MaxInt32 || y < math.MinInt32 {
		return time.Time{}, false
	}
	return t, true
}

// LocalZone is the zone TZ names, read as glibc reads it: unset, the
// system's zone; empty, UTC; else a zone file (by path, or by name
// under the zoneinfo directory) or a POSIX TZ string such as
// "PST8PDT,M3.2.0,M11.1.0" or "XXXYYY-12:30". Go reads such strings only
// inside zone files, so the string is put inside one: a TZif file with no
// transitions and the string as its footer, which Go applies to all times.
// Read at each call, not from time.Local, which Go fixes at its first use.
func LocalZone() *time.Location {
	tz, ok := os.LookupEnv("TZ")
	if !ok {
		tz = "/etc/localtime"
	}
	tz = strings.TrimPrefix(tz, ":")
	switch {
	case tz == "" || tz == "UTC":
		return time.UTC
	case strings.HasPrefix(tz, "/"):
		if loc, ok := zoneFile(tz); ok {
			return loc
		}
		return time.UTC
	}
	if dir := os.Getenv("TZDIR"); dir != "" { // glibc's zone directory, as ZONEINFO is Go's
		if loc, ok := zoneFile(filepath.Join(dir, tz)); ok {
			return loc
		}
	} else if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	if loc, err := time.LoadLocationFromTZData(tz, posixTZif(tz)); err == nil {
		return loc
	}
	return time.UTC
}

// zoneFile reads the zone file at path.
func zoneFile(path string) (*time.Location, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	loc, err := time.LoadLocationFromTZData("Local", data)
	return loc, err == nil
}

// posixTZif is a version 2 TZif file holding tz as the rule for all times
// (RFC 8536, sections 3.1 to 3.3) and, for when Go cannot read tz, one
// zone at UTC named by tz's leading letters, as glibc names it then.
func posixTZif(tz string) []byte {
	abbr := tz[:len(tz)-len(strings.TrimLeftFunc(tz, unicode.IsLetter))]
	if len(abbr) < 3 || len(abbr) > 6 {
		abbr = "UTC"
	}
	header := func(b []byte, version byte) []byte {
		b = append(b, "TZif"...)
		b = append(b, version)
		b = append(b, make([]byte, 15)...)
		// isutcnt, isstdcnt, leapcnt, timecnt, typecnt = 1, charcnt
		for _, n := range []uint32{0, 0, 0, 0, 1, uint32(len(abbr) + 1)} {
			b = binary.BigEndian.AppendUint32(b, n)
		}
		// the one local time type: UT offset 0, not DST, abbreviation abbr
		b = append(b, 0, 0, 0, 0, 0, 0)
		return append(append(b, abbr...), 0)
	}
	b := header(nil, '2')
	b = header(b, '2')
	return append(append(append(b, '\n'), tz...), '\n')
}
