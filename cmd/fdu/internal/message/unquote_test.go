package message

import (
	"strings"
)

// unshell reads a word as a POSIX shell with $'...' does: '...'
// literally, $'...' with C's escapes, "..." with nothing to escape (the
// only form quoteaf writes).
func unshell(w string) (string, bool) {
	var b strings.Builder
	for len(w) > 0 {
		switch {
		case strings.HasPrefix(w, "$'"):
			end := strings.IndexByte(w[2:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(unescape(w[2 : 2+end]))
			w = w[3+end:]
		case w[0] == '\'':
			end := strings.IndexByte(w[1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(w[1 : 1+end])
			w = w[2+end:]
		case w[0] == '"':
			end := strings.IndexByte(w[1:], '"')
			if end < 0 {
				return "", false
			}
			b.WriteString(w[1 : 1+end])
			w = w[2+end:]
		case w[0] == '\\' && len(w) > 1:
			b.WriteByte(w[1])
			w = w[2:]
		default:
			b.WriteByte(w[0])
			w = w[1:]
		}
	}
	return b.String(), true
}

// unC reads quote()'s output: its marks around C's escapes.
func unC(q string, cs *Charset) string {
	left, right := cs.quotes()
	return unescape(strings.TrimSuffix(strings.TrimPrefix(q, left), right))
}

// unescape undoes C's backslash escapes: \ooo, the letters, and a
// backslash before anything else.
func unescape(s string) string {
	letters := map[byte]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case '0' <= c && c <= '7' && i+2 < len(s):
			b.WriteByte((c-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
			i += 2
		case letters[c] != 0:
			b.WriteByte(letters[c])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
