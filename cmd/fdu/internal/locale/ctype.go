package locale

import (
	"encoding/binary"
	"strings"
)

// LC_CTYPE's items fdu reads, numbered as in glibc's <langinfo.h>.
const (
	ctypeClass       = 0  // _NL_CTYPE_CLASS: 384 class masks, for bytes -128 to 255
	ctypeMBCurMax    = 13 // _NL_CTYPE_MB_CUR_MAX
	ctypeCodeset     = 14 // _NL_CTYPE_CODESET_NAME: nl_langinfo(CODESET)
	ctypeClassOffset = 17 // _NL_CTYPE_CLASS_OFFSET: the item of the first wide-character class
	classPrint       = 6  // __ISwprint: "print", the seventh class
)

// Ctype is what fdu reads of a locale's LC_CTYPE: the character set, and
// which characters are printable as isprint and iswprint say.
type Ctype struct {
	codeset  string
	mbCurMax uint32
	class    []byte // _NL_CTYPE_CLASS
	print    []byte // the "print" class's three-level table
}

// C is the C locale's LC_CTYPE, built into glibc: ASCII, printable from
// space to '~'.
var C = &Ctype{codeset: "ANSI_X3.4-1968", mbCurMax: 1}

func newCtype(d *data) *Ctype {
	return &Ctype{
		codeset:  d.str(ctypeCodeset),
		mbCurMax: d.word(ctypeMBCurMax),
		class:    d.item(ctypeClass),
		print:    d.item(int(d.word(ctypeClassOffset)) + classPrint),
	}
}

// Codeset is the character set's name, as nl_langinfo(CODESET) gives
// it.
func (c *Ctype) Codeset() string { return c.codeset }

// UTF8 reports whether the character set is UTF-8, as gnulib's
// quotearg asks (locale_charset, compared without regard to case).
func (c *Ctype) UTF8() bool { return strings.EqualFold(c.codeset, "UTF-8") }

// Unibyte reports whether every character is one byte (MB_CUR_MAX is 1).
func (c *Ctype) Unibyte() bool { return c.mbCurMax == 1 }

// IsPrint is isprint(b) in a unibyte locale: the class table's
// printable bit.
func (c *Ctype) IsPrint(b byte) bool {
	i := 2 * (int(b) + 128)
	if c.class == nil || i+2 > len(c.class) {
		return 0x20 <= b && b < 0x7f
	}
	return binary.NativeEndian.Uint16(c.class[i:])&isPrintBit != 0
}

// isPrintBit is _ISprint, bit 6 of the class masks as <ctype.h> stores
// them: its bytes swapped on a little-endian machine.
var isPrintBit = func() uint16 {
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		return 1 << 6 // big-endian
	}
	return 1 << 6 << 8
}()

// IsWPrint is iswprint(r): for ASCII isprint's answer, for the rest the
// locale's "print" table (wcfuncs.c). Data too short to hold the answer
// says not printable, as glibc reads no further either.
func (c *Ctype) IsWPrint(r rune) bool {
	if 0 <= r && r < 0x80 {
		return c.IsPrint(byte(r))
	}
	if r < 0 || c.print == nil {
		return false
	}
	return tableLookup(c.print, uint32(r))
}

// tableLookup is glibc's wctype_table_lookup (wctype/wchar-lookup.h):
// five header words (shift1, bound, shift2, mask2, mask3), then the
// first level's offsets; a second and a third level below, offsets
// counted from the table's start, the last holding 32 bits a word.
func tableLookup(t []byte, wc uint32) bool {
	w := func(off uint64) (uint32, bool) {
		if off+4 > uint64(len(t)) {
			return 0, false
		}
		return binary.NativeEndian.Uint32(t[off:]), true
	}
	shift1, ok1 := w(0)
	bound, ok2 := w(4)
	if !ok1 || !ok2 || shift1 > 31 || wc>>shift1 >= bound {
		return false
	}
	l1, ok := w(4 * (5 + uint64(wc>>shift1)))
	if !ok || l1 == 0 {
		return false
	}
	shift2, _ := w(8)
	mask2, _ := w(12)
	l2, ok := w(uint64(l1) + 4*uint64((wc>>(shift2&31))&mask2))
	if !ok || l2 == 0 {
		return false
	}
	mask3, _ := w(16)
	l3, ok := w(uint64(l2) + 4*uint64((wc>>5)&mask3))
	return ok && l3>>(wc&0x1f)&1 != 0
}
