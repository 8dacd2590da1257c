package browse

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
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

// escape is fdu -i's one sanitizer: s as a terminal may show it, every
// character that would act on the terminal or hide, reorder or fake what
// is shown written as an escape, so that a name shows what it holds and
// two names that differ show differently (the escapes can be read back:
// see unescape in the tests):
//
//   - a backslash is \\ (so a name holding backslash, n shows as \\n);
//   - the C0 controls and DEL: \a \b \t \n \v \f \r for those seven, \xNN
//     (two lowercase hex digits) for the others (\x1b for ESC, \x7f);
//   - a byte that is not part of valid UTF-8 (a lone 0xff, a surrogate's
//     bytes, a truncated sequence): \xNN for each byte;
//   - the C1 controls (U+0080-U+009F, which a terminal may take as ESC and
//     a letter), the format characters (Unicode's Cf: the bidi embeddings,
//     overrides and isolates U+202A-U+202E and U+2066-U+2069, the marks
//     U+200E, U+200F and U+061C, zero widths such as U+200B-U+200D and
//     U+FEFF, the soft hyphen, tags) and the line and paragraph separators
//     U+2028 and U+2029: \uNNNN, or \UNNNNNNNN past U+FFFF (lowercase) -
//     a valid U+0085 is \u0085, a byte 0x85 alone \x85;
//   - a combining mark (Unicode's M) with nothing to combine with: at the
//     start, after an escape, or after an ASCII character that is not a
//     letter or digit (a space, a slash: a name's first character in a
//     path), as \uNNNN; after a letter or any other character it combines,
//     as it should (é, and an emoji's variation selector).
//
// Everything else is kept, wide characters and emoji too (the screen's
// widths are uniseg's, as tcell's). Under !backslash a backslash is kept:
// put checks what it draws with it, which leaves an escaped string as it
// is.
func escape(s string, backslash bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' && backslash {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	const start, escaped = -1, -2
	prev := rune(start) // the last rune written as it is, or start, or escaped
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
			prev = escaped
		case r == '\\' && backslash:
			b.WriteString(`\\`)
			prev = r
		case r < 0x20 || r == 0x7f:
			if k := strings.IndexRune("\a\b\t\n\v\f\r", r); k >= 0 {
				b.WriteByte('\\')
				b.WriteByte("abtnvfr"[k])
			} else {
				fmt.Fprintf(&b, `\x%02x`, r)
			}
			prev = escaped
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) ||
			unicode.In(r, unicode.M) && (prev < 0 || prev < utf8.RuneSelf && !isAlnum(prev)):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			prev = escaped
		default:
			b.WriteString(s[i : i+size])
			prev = r
		}
		i += size
	}
	return b.String()
}

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
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
