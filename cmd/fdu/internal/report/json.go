package report

import (
	"encoding/base64"
	"io"
	"strconv"
	"unicode/utf8"
)

// printJSON writes the roots as one JSON array on one line, each entry an
// object of name (and name_bytes), size, inodes, dir, error and children,
// the false or empty ones left out, as encoding/json's Encoder (without
// HTML escaping) writes such a struct. It is written out here rather than
// with encoding/json, whose reflection is a tenth of the binary: every
// page of the binary is resident while fdu runs, and its footprint is one
// of the things fdu is measured by.
func (v *Views) printJSON(out io.Writer) error {
	b := []byte{'['}
	for i, e := range v.roots {
		if i > 0 {
			b = append(b, ',')
		}
		b = v.appendJSON(b, e)
		if len(b) > 32<<10 {
			if _, err := out.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, ']', '\n')
	_, err := out.Write(b)
	return err
}

// appendJSON appends e and its children, depth first.
func (v *Views) appendJSON(b []byte, e entry) []byte {
	b = appendJSONFields(b, e)
	if kids := v.children(e); len(kids) > 0 {
		b = append(b, `,"children":[`...)
		for i, k := range kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.appendJSON(b, k)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONFields appends e's object up to its children: its opening
// brace and its fields.
func appendJSONFields(b []byte, e entry) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, e.name)
	if !utf8.ValidString(e.name) {
		// "name" has U+FFFD for each byte that is not UTF-8, so two names
		// may read the same: the exact bytes follow, in base64.
		b = append(b, `,"name_bytes":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(e.name))
		b = append(b, '"')
	}
	b = append(b, `,"size":`...)
	b = strconv.AppendUint(b, e.size, 10)
	b = append(b, `,"inodes":`...)
	b = strconv.AppendUint(b, e.inodes, 10)
	if e.dir != nil {
		b = append(b, `,"dir":true`...)
	}
	if e.failed {
		b = append(b, `,"error":true`...)
	}
	return b
}

// appendJSONString appends s quoted as JSON, as encoding/json does without
// HTML escaping: a byte that is not UTF-8 becomes U+FFFD, control
// characters and U+2028 and U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			default:
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
