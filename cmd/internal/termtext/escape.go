// Package termtext escapes text for a terminal: whatever a name, a path
// or an error message holds, what the commands print of it cannot move
// the cursor, retitle the terminal, reorder what is shown or pass for
// another name. fdu -i draws every string through it; frd prints its
// messages through it.
package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape is s as a terminal may show it; see escape.
func Escape(s string) string { return escape(s, true) }

// EscapeControls is Escape keeping a backslash as it is: for text that
// may hold escapes already, which it leaves as they are.
func EscapeControls(s string) string { return escape(s, false) }

// escape is s as a terminal may show it, every character that would act
// on the terminal or hide, reorder or fake what is shown written as an
// escape, so that a name shows what it holds and two names that differ
// show differently (the escapes can be read back):
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
// Everything else is kept, wide characters and emoji too. Under
// !backslash a backslash is kept as it is, for text escaped before.
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
