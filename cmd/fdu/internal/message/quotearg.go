package message

import "strings"

// style is a gnulib quoting style, the three du's messages use and the
// one quoting falls back to.
type style int

const (
	shellAlways style = iota // quoteaf: 'name', unprintable bytes as '$'\ooo''
	shellMaybe               // quotef: as shellAlways, but bare when nothing needs quoting
	localeStyle              // quote(): ‘name’ (or 'name'), C escapes inside
	cStyle                   // "name": shellAlways's choice for a name with a single quote
)

// quoter is one run of quotearg_buffer_restyled (gnulib's quotearg.c)
// over a string, ported for the styles above. Its flags keep the C
// names' meanings.
type quoter struct {
	b                   strings.Builder
	st                  style
	cs                  func() *Charset // read only when a byte past ASCII, or quote()'s marks, need it
	elide               bool            // elide_outer_quotes: quotef's
	colon               bool            // ':' must be quoted (quotef: quote_these_too)
	right               string          // quote_string: the closing mark, escaped inside
	pendingShellEnd     bool            // inside '$'...' that must close before a plain byte
	sawSingleQuote      bool
	allCAndShellCompat  bool // every byte is one "like this" quoting keeps as is
	escaping, isRightQt bool // per byte
}

// quoteArg quotes s in style st for the charset cs. A NUL ends s, as it
// ends a C string.
func quoteArg(s string, st style, cs func() *Charset) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	q := &quoter{st: st, cs: cs, allCAndShellCompat: true}
	q.begin()
	if q.run(s) {
		return q.b.String()
	}
	// force_outer_quoting_style: quotef's name needs quotes after all.
	return quoteArg(s, shellAlways, cs)
}

// begin sets the style's flags and writes its opening mark.
func (q *quoter) begin() {
	switch q.st {
	case cStyle:
		q.b.WriteByte('"')
		q.right = `"`
	case localeStyle:
		left, right := q.cs().quotes()
		q.b.WriteString(left)
		q.right = right
	case shellMaybe:
		q.elide, q.colon = true, true
		q.right = "'"
	case shellAlways:
		q.b.WriteByte('\'')
		q.right = "'"
	}
}

// shell reports whether the style is one of the shell's (quoting_style ==
// shell_always_quoting_style in the C).
func (q *quoter) shell() bool { return q.st == shellAlways || q.st == shellMaybe }

// run quotes s after begin; false when quotef must quote after all.
func (q *quoter) run(s string) bool {
	if !q.pass(s) {
		return false
	}
	if q.b.Len() == 0 && q.elide {
		return false
	}
	if q.st == shellAlways && q.sawSingleQuote {
		if q.allCAndShellCompat {
			q.b.Reset()
			q.b.WriteString(quoteArg(s, cStyle, q.cs))
			return true
		}
		// gnulib scans such a name once for the "like this" form, then
		// quotes it again without resetting its state: a $'...' open at
		// the end of the first pass is open at the start of the second,
		// and du prints what that makes: '\377'\'''$'\377' for "\xff'\xff".
		q.b.Reset()
		q.begin()
		q.pass(s)
	}
	if !q.elide {
		q.b.WriteString(q.right)
	}
	return true
}

// pass quotes each byte of s.
func (q *quoter) pass(s string) bool {
	for i := 0; i < len(s); i++ {
		q.escaping, q.isRightQt = false, false
		if !q.shell() && strings.HasPrefix(s[i:], q.right) {
			q.isRightQt = true
		}
		n, ok := q.byteAt(s, i)
		if !ok {
			return false
		}
		i += n
	}
	return true
}

// cEscapes are the control characters C writes as a letter after a
// backslash. quotef quotes a name with any of them: the escape refuses
// (gnulib's early refusal of \n, \r and \t ends the same way).
var cEscapes = map[byte]byte{'\a': 'a', '\b': 'b', '\f': 'f', '\v': 'v', '\n': 'n', '\r': 'r', '\t': 't'}

// byteAt quotes s[i], and the rest of a character of several bytes that
// it begins: it returns how many bytes past i it took, and false when
// quotef must quote after all (the C's force_outer_quoting_style).
func (q *quoter) byteAt(s string, i int) (int, bool) {
	c := s[i]
	compat := false
	switch {
	case cEscapes[c] != 0:
		return 0, q.escaped(cEscapes[c], false)
	case c == '\\':
		if q.shell() {
			return 0, !q.elide && q.store(c, false)
		}
		return 0, q.escaped('\\', false)
	case c == '?', (c == '{' || c == '}') && len(s) != 1, (c == '#' || c == '~') && i != 0:
		if c == '?' && q.elide {
			return 0, false
		}
	case strings.IndexByte(" #~{}", c) >= 0:
		compat = true
		fallthrough
	case strings.IndexByte(`!"$&()*;<=>[^`+"`|", c) >= 0:
		if q.elide {
			return 0, false
		}
	case c == '\'':
		q.sawSingleQuote, compat = true, true
		if q.shell() {
			if q.elide {
				return 0, false
			}
			q.b.WriteString(`'\'`)
			q.pendingShellEnd = false
		}
	default:
		// Controls, bytes past ASCII, and the rest of printable ASCII: the
		// letters, digits and %+,-./:]_@ gnulib keeps as is, as char does.
		return q.char(s, i)
	}
	if q.isRightQt || q.colon && c == ':' {
		return 0, q.escaped(c, compat)
	}
	return 0, q.store(c, compat)
}

// char quotes the character s[i] begins: a printable one as it is, and
// each byte of an unprintable or invalid one as \ooo (the C's default
// case). ASCII is printable as in C in every locale; only the bytes past
// it need the charset, and so the locale.
func (q *quoter) char(s string, i int) (int, bool) {
	c := s[i]
	m, printable := 1, cLocale.PrintByte(c)
	if c >= 0x80 {
		m, printable = q.cs().char(s[i:])
	}
	if m <= 1 && printable {
		if q.isRightQt || q.colon && c == ':' {
			return 0, q.escaped(c, true)
		}
		return 0, q.store(c, true)
	}
	start := i
	for {
		if !printable {
			if !q.startEscape() {
				return 0, false
			}
			q.b.WriteByte('0' + c>>6)
			q.b.WriteByte('0' + c>>3&7)
			c = '0' + c&7
		} else if q.isRightQt {
			q.b.WriteByte('\\')
			q.isRightQt = false
		}
		if start+m <= i+1 {
			break
		}
		q.endEscape()
		q.b.WriteByte(c)
		i++
		c = s[i]
	}
	return i - start, q.store(c, printable)
}

// escaped writes c after a backslash (the C's store_escape).
func (q *quoter) escaped(c byte, compat bool) bool {
	return q.startEscape() && q.store(c, compat)
}

// store writes c, closing a $'...' left open (the C's store_c).
func (q *quoter) store(c byte, compat bool) bool {
	q.endEscape()
	q.b.WriteByte(c)
	if !compat {
		q.allCAndShellCompat = false
	}
	return true
}

// startEscape begins a backslash escape, inside $'...' in the shell's
// styles (START_ESC); false in quotef, which must quote instead.
func (q *quoter) startEscape() bool {
	if q.elide {
		return false
	}
	q.escaping = true
	if q.shell() && !q.pendingShellEnd {
		q.b.WriteString(`'$'`)
		q.pendingShellEnd = true
	}
	q.b.WriteByte('\\')
	return true
}

// endEscape closes $'...' before a byte that is not escaped (END_ESC).
func (q *quoter) endEscape() {
	if q.pendingShellEnd && !q.escaping {
		q.b.WriteString(`''`)
		q.pendingShellEnd = false
	}
}
