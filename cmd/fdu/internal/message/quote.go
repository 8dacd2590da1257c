package message

import "strings"

// Quote quotes a file name for a message as coreutils' quoteaf does in the
// C locale (shell-escape-always): 'name', with a single quote written as
// '\” and unprintable bytes as $'\n' pieces.
func Quote(s string) string {
	if strings.IndexByte(s, '\'') >= 0 && doubleQuotable(s) {
		return `"` + s + `"` // gnulib's choice when nothing else in s needs a shell escape
	}
	var b strings.Builder
	b.WriteByte('\'')
	inEsc := false
	for i := 0; i < len(s); {
		c := s[i]
		printable := c >= 0x20 && c < 0x7f
		if printable {
			if inEsc {
				b.WriteString("''")
				inEsc = false
			}
			if c == '\'' {
				b.WriteString(`'\''`)
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		if !inEsc {
			b.WriteString("'$'")
			inEsc = true
		}
		switch c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		default:
			b.WriteByte('\\')
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
		}
		i++
	}
	if inEsc {
		b.WriteString("'")
	} else {
		b.WriteByte('\'')
	}
	return b.String()
}

// Quotef quotes s only where a shell would need it, colons included, as
// gnulib's quotef does for the file names du puts before a colon.
func Quotef(s string) string {
	if s == "" {
		return Quote(s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("%+,-./_", c) >= 0:
		case (c == '#' || c == '~') && i != 0:
		case (c == '{' || c == '}') && len(s) != 1:
		default:
			return Quote(s)
		}
	}
	return s
}

// doubleQuotable reports whether every byte of s is one gnulib's quotearg
// calls "C and shell quote compatible": letters, digits, %+,-./:]_ and the
// other printable bytes that are special to neither (@, ?-less), the
// single quote, space, and #, ~ first and { or } alone. A name with a
// single quote and only such bytes is quoted "like this".
func doubleQuotable(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("%+,-./:]_' @", c) >= 0:
		case c == '#' || c == '~':
			if i != 0 {
				return false
			}
		case c == '{' || c == '}':
			if len(s) != 1 {
				return false
			}
		default:
			return false // shell specials, ?, \, controls, and bytes past ASCII
		}
	}
	return true
}
