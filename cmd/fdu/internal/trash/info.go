//go:build unix

package trash

import (
	"strings"
	"time"
)

// infoText is a .trashinfo file's contents: the original path,
// percent-encoded, and when it was trashed, in local time as the
// specification asks.
func infoText(path string, when time.Time) string {
	return "[Trash Info]\nPath=" + encodePath(path) + "\nDeletionDate=" + when.Format("2006-01-02T15:04:05") + "\n"
}

// encodePath percent-encodes every byte of p but the unreserved
// characters of RFC 3986 and "/": a name's bytes come back exactly,
// whatever their encoding.
func encodePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
