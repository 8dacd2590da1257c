package units

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// TimeType is the time --time=WORD shows: "atime" or "ctime", from
// du's words for them (time_args in du.c); word BareTime, --time without
// a word, is "mtime".
func TimeType(word string) (string, error) {
	if word == BareTime {
		return "mtime", nil
	}
	return argmatch("--time", word, []string{"atime", "access", "use", "ctime", "status"},
		[]string{"atime", "atime", "atime", "ctime", "ctime"})
}

// BareTime stands for --time given without a word: no argument can hold
// a NUL.
const BareTime = "\x00"

// TimeFormat turns du's --time-style into a strftime-like format; given
// is whether the option was, TIME_STYLE read when it was not.
func TimeFormat(style string, given bool) (string, error) {
	if !given {
		var set bool
		style, set = os.LookupEnv("TIME_STYLE")
		if !set || style == "locale" {
			style = "long-iso"
		} else if strings.HasPrefix(style, "+") {
			style, _, _ = strings.Cut(style, "\n")
		} else {
			for strings.HasPrefix(style, "posix-") {
				style = strings.TrimPrefix(style, "posix-")
			}
		}
	}
	if strings.HasPrefix(style, "+") {
		return style[1:], nil
	}
	formats := []string{"%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M", "%Y-%m-%d"}
	return argmatch("time style", style, []string{"full-iso", "long-iso", "iso"}, formats)
}

// Strftime formats t with the conversions du users reach for.
func Strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			fmt.Fprintf(&b, "%02d", (t.Hour()+11)%12+1)
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'N':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
