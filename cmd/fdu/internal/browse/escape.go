package browse

import (
	"fmt"
	"reflect"

	"github.com/rivo/uniseg"

	"github.com/pbednarcik/flexreaddir/cmd/internal/termtext"
)

// shown is text that may be drawn on the screen: the browser's own words
// (a string constant converts to shown by itself) and, through esc or
// textf only, anything else: names, paths, error texts, the file -f read.
// A string variable is not shown without one of them (and no conversion
// shown(s) of a string that was not shown), and put, the one function that
// writes cells, escapes again whatever control it would find, so even a
// string converted wrongly cannot act on the terminal.
type shown string

// lit is a format of textf's: a constant, as a string variable does not
// convert to it.
type lit string

// esc is s as the screen shows it; see escape.
func esc(s string) shown { return shown(escape(s, true)) }

// Escape is s as fdu -i shows it, for what it prints outside the screen
// (before it, after it, and while a shell has it); see escape.
func Escape(s string) string { return escape(s, true) }

// textf is fmt.Sprintf for the screen: the format is the program's own
// (a constant), each argument is escaped (a string, an error's text, a
// Stringer's, any other value's %v) except shown, already escaped, and
// numbers and bools, left for their verbs (%d, %5.1f, %c of a rune); the
// result is checked as put checks it.
func textf(format lit, args ...any) shown {
	a := make([]any, len(args))
	for i, v := range args {
		switch v := v.(type) {
		case shown:
			a[i] = string(v)
		case string:
			a[i] = Escape(v)
		case error:
			a[i] = Escape(v.Error())
		default:
			switch reflect.ValueOf(v).Kind() {
			case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
				reflect.Float32, reflect.Float64:
				a[i] = v // a number for its verb; put's check still holds for a String method's text
			default:
				a[i] = Escape(fmt.Sprint(v)) // a Stringer's text, any other value's %v
			}
		}
	}
	return shown(escape(fmt.Sprintf(string(format), a...), false))
}

// escape is termtext's escaping: see termtext.Escape for its rules.
// Under !backslash a backslash is kept: put checks what it draws with it,
// which leaves an escaped string as it is.
func escape(s string, backslash bool) string {
	if backslash {
		return termtext.Escape(s)
	}
	return termtext.EscapeControls(s)
}

// unit is what a cut or a wrap keeps or moves whole: a grapheme cluster,
// or one of escape's escapes (a backslash in shown always starts one).
type unit struct {
	s shown
	w int // cells
}

// units is t in units.
func units(t shown) []unit {
	var out []unit
	state := -1
	for rest := t; rest != ""; {
		if n := escapeLen(string(rest)); n > 0 {
			out = append(out, unit{rest[:n], n})
			rest, state = rest[n:], -1
			continue
		}
		cluster, _, w, st := uniseg.FirstGraphemeClusterInString(string(rest), state)
		out = append(out, unit{rest[:len(cluster)], w})
		rest, state = rest[len(cluster):], st
	}
	return out
}

// escapeLen is the length of the escape s starts with, or 0.
func escapeLen(s string) int {
	if len(s) < 2 || s[0] != '\\' {
		return 0
	}
	n := map[byte]int{'x': 4, 'u': 6, 'U': 10}[s[1]]
	if n == 0 || len(s) < n {
		return 2 // \\, \n and the others
	}
	return n
}
