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
		c = format[i]
		if layout, ok := strftimeLayouts[c]; ok {
			b.WriteString(t.Format(layout))
			continue
		}
		switch c {
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'N':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// strftimeLayouts are the conversions Go's layouts write as strftime
// does. The years and %N are not among them: Go pads a year to four
// digits, drops a negative year's sign in "06" and writes no bare
// fraction.
var strftimeLayouts = map[byte]string{
	'm': "01", 'd': "02", 'e': "_2", 'H': "15", 'I': "03", 'M': "04", 'S': "05", 'j': "002",
	'p': "PM", 'z': "-0700", 'Z': "MST", 'a': "Mon", 'A': "Monday", 'b': "Jan", 'h': "Jan",
	'B': "January", 'F': "2006-01-02", 'T': "15:04:05", 'R': "15:04", 'D': "01/02/06",
}
