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

// SyntaxError is a malformed or truncated export, with where it went wrong.
type SyntaxError struct {
	Line, Column int   // from 1; the column counts bytes
	Offset       int64 // bytes from the start
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, e.Msg)
}

// Read reads an export in ncdu's JSON format (major version 1, any minor
// version), as `ncdu -o`, `gdu -o` and Write write it, and counts it. A
// malformed or truncated file is a *SyntaxError. Any depth reads without
// recursion; unknown fields are skipped.
func Read(r io.Reader) (*Tree, Meta, error) {
	d := &decoder{r: bufio.NewReaderSize(r, 64<<10), line: 1, col: 1}
	t, meta, err := d.top()
	if err != nil {
		return nil, meta, err
	}
	t.Recount()
	return t, meta, nil
}

type decoder struct {
	r         *bufio.Reader
	line, col int
	off       int64
	buf       []byte
	err       error // the reader's, other than EOF

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

func (d *decoder) top() (*Tree, Meta, error) {
	var meta Meta
	if err := d.expect('['); err != nil {
		return nil, meta, err
	}
	major, err := d.number()
	if err == nil && major != 1 {
		err = d.fail("major version %v: only 1 is known", major)
	}
	if err == nil {
		err = d.expect(',')
	}
	var minor float64
	if err == nil {
		minor, err = d.number()
	}
	if err == nil && (minor < 0 || minor > 10000) {
		err = d.fail("minor version %v out of range", minor)
	}
	if err == nil {
		err = d.expect(',')
	}
	if err == nil {
		meta, err = d.metadata()
	}
	if err == nil {
		err = d.expect(',')
	}
	if err == nil && d.peek() != '[' {
		err = d.fail("expected the root directory's '['")
	}
	var t *Tree
	if err == nil {
		t, err = d.tree()
	}
	if err == nil {
		err = d.expect(']')
	}
	if err == nil && d.peek() != 0 {
		err = d.fail("data after the end of the export")
	}
	if err == nil && d.err != nil {
		err = d.err
	}
	return t, meta, err
}

// metadata reads the metadata object, keeping what Meta has room for.
func (d *decoder) metadata() (Meta, error) {
	var m Meta
	err := d.object(func(key string) error {
		switch key {
		case "progname", "progver":
			if d.peek() != '"' {
				return d.skip()
			}
			s, err := d.str()
			if key == "progname" {
				m.Progname = string(s)
			} else {
				m.Progver = string(s)
			}
			return err
		case "timestamp":
			f, err := d.num()
			m.Timestamp = f.clampInt(0)
			return err
		}
		return d.skip()
	})
	return m, err
}

// maxDepth bounds the nesting read: Recount and Write recurse, one frame
// a level, within Go's stack limit (a million levels is far deeper than
// any tree a scan meets).
const maxDepth = 1000000

// frame is a directory being read, and its entries so far.
type frame struct {
	node Node
	kids []Node
}

// tree reads the root directory's array and all below it, with a stack of
// the directories open rather than recursion.
func (d *decoder) tree() (*Tree, error) {
	d.next() // '['
	root, err := d.info()
	if err != nil {
		return nil, err
	}
	root.Dir = &Dir{Dev: root.Dir.Dev}
	stack := []*frame{{node: root.Node}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		switch b := d.peek(); b {
		case ',':
			d.next()
			switch d.peek() {
			case '[':
				d.next()
				n, err := d.info()
				if err != nil {
					return nil, err
				}
				if !n.dev {
					n.Dir.Dev = top.node.Dir.Dev
				}
				if len(stack) >= maxDepth {
					return nil, d.fail("directories nested deeper than %d", maxDepth)
				}
				stack = append(stack, &frame{node: n.Node})
			case '{':
				n, err := d.info()
				if err != nil {
					return nil, err
				}
				n.Dir = nil
				top.kids = append(top.kids, n.Node)
			default:
				return nil, d.fail("expected an entry ('{' or '[')")
			}
		case ']':
			d.next()
			top.node.Dir.Kids = top.kids
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return &Tree{Root: top.node}, nil
			}
			up := stack[len(stack)-1]
			up.kids = append(up.kids, top.node)
		case 0:
			return nil, d.fail("unexpected end of file inside directory %q", top.node.Name)
		default:
			return nil, d.fail("expected ',' or ']', found %s", quoteByte(b))
		}
	}
	panic("unreachable")
}

// info is an info object read, made a directory node, and whether it
// named its device.
type info struct {
	Node
	dev bool
}

func (d *decoder) info() (info, error) {
	if d.peek() != '{' {
		return info{}, d.fail("expected an info object ('{')")
	}
	n := info{Node: Node{Dir: &Dir{}}}
	named := false
	err := d.object(func(key string) error {
		switch key {
		case "name":
			if d.peek() != '"' {
				return d.fail("a name must be a string")
			}
			s, err := d.str()
			n.Name, named = string(s), true
			return err
		case "asize", "dsize":
			v, err := d.size()
			if key == "asize" {
				n.Asize = v
			} else {
				n.Dsize = v
			}
			return err
		case "dev", "ino", "nlink":
			f, err := d.num()
			v := f.clampUint()
			switch key {
			case "dev":
				n.Dir.Dev, n.dev = v, true
			case "ino":
				n.Ino = v
			default:
				n.Nlink = uint32(min(v, math.MaxUint32))
			}
			return err
		case "mtime":
			f, err := d.num()
			if f.f < 0 {
				n.Mtime = int64(max(f.f, math.MinInt64/2)) // before 1970; far before is noise
			} else {
				n.Mtime = f.clampInt(0)
			}
			return err
		case "mode":
			f, err := d.num()
			if f.clampUint()&0o170000 == 0o120000 {
				n.Flags |= Symlink
			}
			return err
		case "hlnkc", "read_error", "notreg":
			return d.flag(key, &n.Node)
		case "excluded":
			return d.excluded(&n.Node)
		}
		return d.skip()
	})
	if err == nil && !named {
		err = d.fail("an entry without a name")
	}
	if n.Flags&HardLink == 0 {
		n.Nlink = max(n.Nlink, 1)
	}
	return n, err
}

func (d *decoder) flag(key string, n *Node) error {
	v, err := d.boolean()
	if !v {
		return err
	}
	switch key {
	case "hlnkc":
		n.Flags |= HardLink
	case "read_error":
		n.Flags |= ReadError
	case "notreg":
		n.Flags |= NotReg
	}
	return err
}

// excluded reads ncdu's reason ("pattern", "otherfs", "kernfs",
// "frmlnk"; true in old files).
func (d *decoder) excluded(n *Node) error {
	if d.peek() != '"' {
		v, err := d.boolean()
		if v {
			n.Flags |= Excluded
		}
		return err
	}
	s, err := d.str()
	switch string(s) {
	case "otherfs", "othfs":
		n.Flags |= OtherFS
	case "kernfs":
		n.Flags |= KernFS
	default:
		n.Flags |= Excluded
	}
	return err
}

func (d *decoder) size() (int64, error) {
	f, err := d.num()
	if err == nil && f.f < 0 {
		return 0, d.fail("a negative size")
	}
	return f.clampInt(0), err
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
			err = field(string(key))
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
