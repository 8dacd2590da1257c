package main

import (
	"strconv"
	"strings"
)

// quotePath quotes a path as git status does an unusual one (core.quotePath
// on): in double quotes with C escapes when it holds a control character,
// a double quote, a backslash or a byte above 0x7f; as it is otherwise.
func quotePath(p string) string {
	if !strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r >= 0x7f || r == '"' || r == '\\' }) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 0x20 || c >= 0x7f {
				b.WriteByte('\\')
				o := strconv.FormatUint(uint64(c), 8)
				b.WriteString(strings.Repeat("0", 3-len(o)) + o)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
