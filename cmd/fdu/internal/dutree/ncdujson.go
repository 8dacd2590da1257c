package dutree

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON beneath ncdu's format, read a byte at a time from a buffer:
// strings as ncdu writes them (any bytes but control characters), numbers
// kept as their text, and a skip of any value without recursion.

type decoder struct {
	r         *bufio.Reader
	line, col int
	off       int64
	buf       []byte
	name      []byte // the last entry's name, apart from buf

	unfinished bool  // an entry read was unfinished: the tree is Incomplete
	extended   bool  // owner, group and mode are kept (ReadOptions.Extended)
	err        error // the reader's, other than EOF

	justOpened bool // skip: an array or object was opened, its first value next
}

func (d *decoder) fail(format string, a ...any) error {
	if d.err != nil {
		return d.err
	}
	return &SyntaxError{Line: d.line, Column: d.col, Offset: d.off, Msg: fmt.Sprintf(format, a...)}
}

// peek skips white space and returns the next byte, unread; 0 at the end.
func (d *decoder) peek() byte {
	for {
		b, err := d.r.ReadByte()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				d.err = err
			}
			return 0
		}
		switch b {
		case ' ', '\t', '\r':
			d.col++
			d.off++
		case '\n':
			d.line, d.col = d.line+1, 1
			d.off++
		default:
			d.r.UnreadByte()
			return b
		}
	}
}

func (d *decoder) next() (byte, bool) {
	b, err := d.r.ReadByte()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			d.err = err
		}
		return 0, false
	}
	d.off++
	if b == '\n' {
		d.line, d.col = d.line+1, 1
	} else {
		d.col++
	}
	return b, true
}

func (d *decoder) expect(c byte) error {
	switch b := d.peek(); b {
	case c:
		d.next()
		return nil
	case 0:
		return d.fail("unexpected end of file: expected '%c'", c)
	default:
		return d.fail("expected '%c', found %s", c, quoteByte(b))
	}
}

func quoteByte(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return fmt.Sprintf("'%c'", b)
	}
	return fmt.Sprintf("byte 0x%02x", b)
}

// object reads an object, calling field with each key, the reader at the
// value, which field must read.
func (d *decoder) object(field func(key string) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	if d.peek() == '}' {
		d.next()
		return nil
	}
	for {
		if d.peek() != '"' {
			return d.fail("expected a key (a string)")
		}
		key, err := d.str()
		if err == nil {
			err = d.expect(':')
		}
		if err == nil {
			err = field(knownKey(key))
		}
		if err != nil {
			return err
		}
		switch b := d.peek(); b {
		case ',':
			d.next()
		case '}':
			d.next()
			return nil
		case 0:
			return d.fail("unexpected end of file inside an object")
		default:
			return d.fail("expected ',' or '}', found %s", quoteByte(b))
		}
	}
}

// str reads a string into d's buffer: bytes as they are (ncdu writes
// names that are not UTF-8 so), escapes decoded.
func (d *decoder) str() ([]byte, error) {
	d.next() // '"'
	d.buf = d.buf[:0]
	for {
		b, ok := d.next()
		switch {
		case !ok:
			return nil, d.fail("unexpected end of file inside a string")
		case b == '"':
			return d.buf, nil
		case b < 0x20:
			return nil, d.fail("a control character (0x%02x) inside a string", b)
		case b != '\\':
			d.buf = append(d.buf, b)
			continue
		}
		if err := d.escape(); err != nil {
			return nil, err
		}
	}
}

func (d *decoder) escape() error {
	b, ok := d.next()
	if !ok {
		return d.fail("unexpected end of file inside a string")
	}
	if r, ok := map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[b]; ok {
		d.buf = append(d.buf, r)
		return nil
	}
	if b != 'u' {
		return d.fail("an unknown escape \\%c", b)
	}
	r, err := d.hex4()
	if err != nil {
		return err
	}
	if utf16.IsSurrogate(r) {
		if lo, ok := d.lowSurrogate(); ok {
			r = utf16.DecodeRune(r, lo)
		} else {
			r = utf8.RuneError
		}
	}
	d.buf = utf8.AppendRune(d.buf, r)
	return nil
}

// lowSurrogate reads the \uDC00-\uDFFF that follows a high surrogate, if
// it does.
func (d *decoder) lowSurrogate() (rune, bool) {
	if p, _ := d.r.Peek(6); len(p) < 6 || p[0] != '\\' || p[1] != 'u' {
		return 0, false
	} else if v, err := strconv.ParseUint(string(p[2:6]), 16, 16); err != nil || v < 0xdc00 || v > 0xdfff {
		return 0, false
	}
	d.next()
	d.next()
	r, _ := d.hex4()
	return r, true
}

func (d *decoder) hex4() (rune, error) {
	var v rune
	for range 4 {
		b, ok := d.next()
		var x byte
		switch {
		case !ok:
			return 0, d.fail("unexpected end of file inside a \\u escape")
		case b >= '0' && b <= '9':
			x = b - '0'
		case b >= 'a' && b <= 'f':
			x = b - 'a' + 10
		case b >= 'A' && b <= 'F':
			x = b - 'A' + 10
		default:
			return 0, d.fail("%s in a \\u escape", quoteByte(b))
		}
		v = v<<4 | rune(x)
	}
	return v, nil
}

// number reads a JSON number; u holds it exactly when it is an integer
// that fits in a uint64 (exact is then true).
type number struct {
	f     float64
	u     uint64
	exact bool
}

// clampInt is n as an int64 within [lo, math.MaxInt64], never wrapped.
func (n number) clampInt(lo int64) int64 {
	switch {
	case n.exact:
		return int64(min(n.u, math.MaxInt64))
	case n.f != n.f || n.f < float64(lo):
		return lo
	case n.f >= 1<<63:
		return math.MaxInt64
	}
	return int64(n.f)
}

// clampUint is n as a uint64 within [0, math.MaxUint64].
func (n number) clampUint() uint64 {
	switch {
	case n.exact:
		return n.u
	case n.f != n.f || n.f <= 0:
		return 0
	case n.f >= 1<<64:
		return math.MaxUint64
	}
	return uint64(n.f)
}

func (d *decoder) num() (number, error) {
	f, err := d.number()
	if err != nil {
		return number{}, err
	}
	u, uerr := strconv.ParseUint(string(d.buf), 10, 64)
	return number{f: f, u: u, exact: uerr == nil}, nil
}

// number reads a JSON number.
func (d *decoder) number() (float64, error) {
	d.buf = d.buf[:0]
	if d.peek() == 0 {
		return 0, d.fail("unexpected end of file: expected a number")
	}
	for {
		p, err := d.r.Peek(1)
		if err != nil || !isNumberByte(p[0]) {
			break
		}
		b, _ := d.next()
		d.buf = append(d.buf, b)
		if len(d.buf) > 64 {
			return 0, d.fail("a number too long")
		}
	}
	if !validNumber(d.buf) {
		return 0, d.fail("expected a number")
	}
	f, err := strconv.ParseFloat(string(d.buf), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, d.fail("expected a number")
	}
	return f, nil
}

func isNumberByte(b byte) bool {
	return b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E'
}

// validNumber is JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(s []byte) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	if n := digits(); n == 0 || (n > 1 && s[start] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func (d *decoder) boolean() (bool, error) {
	d.peek() // JSON allows white space before the value, as after "hlnkc":
	for _, w := range []string{"true", "false"} {
		if p, _ := d.r.Peek(len(w)); string(p) == w {
			for range w {
				d.next()
			}
			return w == "true", nil
		}
	}
	if d.peek() == 'n' {
		return false, d.literal("null")
	}
	return false, d.fail("expected true or false")
}

func (d *decoder) literal(w string) error {
	if p, _ := d.r.Peek(len(w)); string(p) != w {
		return d.fail("expected %s", w)
	}
	for range w {
		d.next()
	}
	return nil
}

// skip reads any value and forgets it, its nesting kept on a stack, not
// in recursion.
func (d *decoder) skip() error {
	var open []byte // the arrays and objects around the reader
	for {
		if err := d.skipScalarOrOpen(&open); err != nil {
			return err
		}
		if len(open) > 0 && (open[len(open)-1] == '[' || open[len(open)-1] == '{') && d.justOpened {
			d.justOpened = false
			continue // at the first value of what just opened
		}
		if err := d.skipClosers(&open); err != nil || len(open) == 0 {
			return err
		}
	}
}

// skipScalarOrOpen reads a scalar, an empty array or object, or the
// opening of one (and an object's first key), pushed on open.
func (d *decoder) skipScalarOrOpen(open *[]byte) error {
	d.justOpened = false
	switch b := d.peek(); {
	case b == '"':
		_, err := d.str()
		return err
	case b == '[' || b == '{':
		d.next()
		closer := byte(']')
		if b == '{' {
			closer = '}'
		}
		if d.peek() == closer {
			d.next()
			return nil
		}
		*open = append(*open, b)
		d.justOpened = true
		if b == '{' {
			return d.key()
		}
		return nil
	case b == 't' || b == 'f':
		_, err := d.boolean()
		return err
	case b == 'n':
		return d.literal("null")
	case b == '-' || b >= '0' && b <= '9':
		_, err := d.number()
		return err
	case b == 0:
		return d.fail("unexpected end of file: expected a value")
	default:
		return d.fail("expected a value, found %s", quoteByte(b))
	}
}

// skipClosers reads what follows a value: closing brackets, until a comma
// (and an object's next key) or the end of the outermost.
func (d *decoder) skipClosers(open *[]byte) error {
	for len(*open) > 0 {
		c := (*open)[len(*open)-1]
		switch b := d.peek(); {
		case b == ',':
			d.next()
			if c == '{' {
				return d.key()
			}
			return nil
		case c == '[' && b == ']', c == '{' && b == '}':
			d.next()
			*open = (*open)[:len(*open)-1]
		case b == 0:
			return d.fail("unexpected end of file inside an array or object")
		default:
			return d.fail("expected ',' or '%c', found %s", map[byte]byte{'[': ']', '{': '}'}[c], quoteByte(b))
		}
	}
	return nil
}

// key reads an object's key and its colon.
func (d *decoder) key() error {
	if d.peek() != '"' {
		return d.fail("expected a key (a string)")
	}
	if _, err := d.str(); err != nil {
		return err
	}
	return d.expect(':')
}
