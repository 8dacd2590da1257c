package message

import (
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Charset is what quoting needs of the locale's LC_CTYPE: how a
// character is read from a name, and whether it is printable.
type Charset struct {
	// UTF8: names are read as UTF-8, each character printable as
	// iswprint says (Print); quote() uses ‘ and ’.
	UTF8  bool
	Print func(rune) bool
	// PrintByte is isprint, for a character set of single bytes: ASCII's
	// printable characters in C, and in other charsets what the locale
	// says. Other multibyte charsets are read as C.
	PrintByte func(byte) bool
}

// cLocale is the C locale's: ASCII, printable from space to '~'.
var cLocale = Charset{PrintByte: func(b byte) bool { return 0x20 <= b && b < 0x7f }}

// charsetOnce loads a Charset the first time a message needs it.
type charsetOnce struct {
	once sync.Once
	load func() Charset
	cs   Charset
}

var current atomic.Pointer[charsetOnce]

func init() { SetCharset(func() Charset { return cLocale }) }

// SetCharset makes load the source of the Charset messages are quoted
// in, called once, when the first message needs it: most runs print no
// message that does, and read no locale.
func SetCharset(load func() Charset) {
	current.Store(&charsetOnce{load: load})
}

func charset() *Charset {
	c := current.Load()
	c.once.Do(func() {
		c.cs = c.load()
		if !c.cs.UTF8 && c.cs.PrintByte == nil {
			c.cs = cLocale
		}
	})
	return &c.cs
}

// char is the character s begins with, as quotearg reads it with
// mbrtowc: its length, 0 for a byte that begins no valid character, and
// whether it is printable. glibc's UTF-8 decoder also takes five- and
// six-byte forms and values past U+10FFFF, none printable: escaped byte by
// byte, just as invalid bytes are, so Go's decoder gives the same output.
func (c *Charset) char(s string) (n int, printable bool) {
	if !c.UTF8 {
		return 1, c.PrintByte(s[0])
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 {
		return 0, false
	}
	return n, c.Print(r)
}

// quotes are quote()'s marks: gettext_quote's in quotearg.c when no
// translation is installed, ‘ ’ in UTF-8 and ' ' otherwise.
func (c *Charset) quotes() (left, right string) {
	if c.UTF8 {
		return "\u2018", "\u2019"
	}
	return "'", "'"
}
