package message

import "testing"

// TestQuoteEdges: what quoting does at its cut-offs. A NUL ends a name as
// it ends a C string, at the first byte too. Byte 0x80, the first past
// ASCII, is the charset's to judge: printable in a single-byte charset
// that prints it (KOI8-R's box drawing), \200 in C, as GNU du 9.1 quotes it:
//
//	$ LC_ALL=C du -X $'\x80' .
//	du: ''$'\200': No such file or directory
func TestQuoteEdges(t *testing.T) {
	c := func() *Charset { return &cLocale }
	high := &Charset{PrintByte: func(b byte) bool { return b >= 0x80 }}
	h := func() *Charset { return high }
	for _, tc := range []struct {
		in   string
		st   style
		cs   func() *Charset
		want string
	}{
		{"\x00abc", shellAlways, c, `''`},
		{"a\x00bc", shellAlways, c, `'a'`},
		{"\x80", shellAlways, c, `''$'\200'`},
		{"\x80", shellMaybe, c, `''$'\200'`},
		{"\x80", shellAlways, h, "'\x80'"},
		{"\x80", shellMaybe, h, "\x80"},
		{"\x7f\x80", localeStyle, h, "'\\177\x80'"},
	} {
		if got := quoteArg(tc.in, tc.st, tc.cs); got != tc.want {
			t.Errorf("%q in style %d: %q, want %q", tc.in, tc.st, got, tc.want)
		}
	}
}

// TestCLocalePrintable: C's isprint, from space to '~'; DEL and the
// controls below space are not printable.
func TestCLocalePrintable(t *testing.T) {
	for b, want := range map[byte]bool{0x00: false, 0x1f: false, 0x20: true, 0x21: true, 0x7e: true, 0x7f: false, 0x80: false, 0xff: false} {
		if got := cLocale.PrintByte(b); got != want {
			t.Errorf("isprint(%#x) = %v, want %v", b, got, want)
		}
	}
}
