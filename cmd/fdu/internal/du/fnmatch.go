package du

import (
	"os"
	"unsafe"
)

// fnmatch reports whether name matches the shell pattern p as glibc's
// fnmatch (posix/fnmatch_loop.c) with no flags in the C locale: * and ?
// match any byte, / included; [...] and [!...] hold characters, ranges,
// [:class:], [=c=] and [.c.]; a backslash quotes the next byte.
func fnmatch(p, name string) bool { return match(bytesOf(p), bytesOf(name)) }

// fnmatchChars is fnmatch over characters: ? matches one, of any length
// in UTF-8, and a bracket holds characters. Its ranges are in code point
// order, as in C.UTF-8, whose collation has no rules; its [:class:]es
// are C's, holding no character beyond ASCII (C.UTF-8's hold letters and
// signs of every script: not done).
func fnmatchChars(p, name string) bool { return match([]rune(p), []rune(name)) }

// bytesOf is s's bytes, not copied: match only reads them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// caretNegates: glibc takes [^...] for [!...] unless POSIXLY_CORRECT is
// set, to anything.
var caretNegates = !posixlyCorrect()

func posixlyCorrect() bool { _, ok := os.LookupEnv("POSIXLY_CORRECT"); return ok }

// match is fnmatch over bytes or characters. Every element but * takes
// one character, so a failed element only needs the last * to take one
// more, as glibc's search from each * does.
func match[T byte | rune](p, name []T) bool {
	px, nx := 0, 0
	starP, starN := -1, 0
	for nx < len(name) || px < len(p) {
		if px < len(p) {
			switch c := p[px]; c {
			case '*':
				starP, starN = px, nx
				px++
				continue
			case '?':
				if nx < len(name) {
					px++
					nx++
					continue
				}
			case '[':
				if nx < len(name) {
					switch r, next := bracket(p, px, name[nx]); r {
					case bracketIn:
						px, nx = next, nx+1
						continue
					case bracketOpen: // no ] closes it: the [ is a character
						if name[nx] == '[' {
							px++
							nx++
							continue
						}
					}
				}
			case '\\': // a trailing backslash matches nothing
				if px+1 < len(p) && nx < len(name) && name[nx] == p[px+1] {
					px += 2
					nx++
					continue
				}
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starP < 0 || starN == len(name) {
			return false
		}
		starN++
		px, nx = starP+1, starN
	}
	return true
}

// What a bracket expression makes of a character.
const (
	bracketOut  = iota // not in it, or the expression is malformed
	bracketIn          // in it
	bracketOpen        // not closed: its [ is an ordinary character
)

// classNameMax is glibc's CHARCLASS_NAME_MAX, the longest [:name:] read.
const classNameMax = 2048

// at is p[k], or C's NUL past the end.
func at[T byte | rune](p []T, k int) T {
	if k < len(p) {
		return p[k]
	}
	return 0
}

// bracket matches c against the bracket expression at p[i] as glibc
// does: it reads elements until one holds c, then skips to the ] by
// rules of its own, so what is malformed can depend on c. next is the
// index past the ].
func bracket[T byte | rune](p []T, i int, c T) (result, next int) {
	j := i + 1
	negate := at(p, j) == '!' || at(p, j) == '^' && caretNegates
	if negate {
		j++
	}
	in := false
	for first := true; !in; first = false {
		e := at(p, j)
		j++
		if e == ']' && !first {
			if negate {
				return bracketIn, j
			}
			return bracketOut, 0
		}
		switch {
		case e == 0:
			return bracketOpen, 0
		case e == '[' && at(p, j) == ':':
			k := j + 1 // past the name's letters, those glibc takes
			for k-j <= classNameMax && 'a' <= at(p, k) && at(p, k) < 'z' {
				k++
			}
			if k-j > classNameMax {
				return bracketOut, 0
			}
			if at(p, k) != ':' || at(p, k+1) != ']' { // no class: the [ is a character
				break
			}
			class := cClass(p[j+1 : k])
			if class == nil {
				return bracketOut, 0
			}
			in = class(rune(c))
			j = k + 2
			continue
		case e == '[' && at(p, j) == '=':
			if at(p, j+2) == '=' && at(p, j+3) == ']' {
				in = c == at(p, j+1)
				j += 4
				continue
			}
		case e == '[' && at(p, j) == '.':
			if at(p, j+2) != '.' || at(p, j+3) != ']' { // C has no longer collating elements
				return bracketOut, 0
			}
			e, j = at(p, j+1), j+4
			if at(p, j) == '-' && at(p, j+1) == ']' { // glibc took it for a range: e is not held, the - is
				continue
			}
		case e == '\\': // one ending the pattern leaves the bracket open, then fails as a trailing \ does
			e = at(p, j)
			j++
		}
		if at(p, j) != '-' || at(p, j+1) == ']' {
			in = c == e
			continue
		}
		if at(p, j+1) == 0 && c == e { // [a- holds a before it fails
			in = true
			continue
		}
		if in, j = inRange(p, j, e, c); j == 0 {
			return bracketOut, 0
		}
	}
	return skip(p, j, negate)
}

// inRange matches c against the range from lo whose - is at p[j]; j is
// 0 when its end is missing or malformed, else the index past it.
func inRange[T byte | rune](p []T, j int, lo, c T) (bool, int) {
	hi := at(p, j+1)
	j += 2
	switch {
	case hi == '[' && at(p, j) == '.':
		if at(p, j+2) != '.' || at(p, j+3) != ']' {
			return false, 0
		}
		hi = at(p, j+1)
		j += 4
	case hi == '\\':
		hi = at(p, j)
		j++
	}
	if hi == 0 {
		return false, 0
	}
	return lo <= c && c <= hi, j
}

// skip is the rest of a bracket expression once an element held the
// character, read from p[j] as glibc reads it then: a backslash takes the
// next character, [:, [= and [. what closes them, without their checks.
func skip[T byte | rune](p []T, j int, negate bool) (int, int) {
	for {
		e := at(p, j)
		j++
		switch {
		case e == ']':
			if negate {
				return bracketOut, 0
			}
			return bracketIn, j
		case e == 0:
			return bracketOpen, 0
		case e == '\\': // as in bracket, one ending the pattern fails in the end
			j++
		case e == '[' && at(p, j) == ':':
			for k := j + 1; ; k++ {
				if k-j == classNameMax {
					return bracketOut, 0
				}
				if at(p, k) == ':' && at(p, k+1) == ']' {
					j = k + 2
					break
				}
				if at(p, k) < 'a' || at(p, k) >= 'z' {
					break
				}
			}
		case e == '[' && at(p, j) == '=':
			if at(p, j+2) != '=' || at(p, j+3) != ']' {
				return bracketOut, 0
			}
			j += 4
		case e == '[' && at(p, j) == '.':
			k := j + 1
			for at(p, k) != '.' || at(p, k+1) != ']' {
				if at(p, k) == 0 {
					return bracketOut, 0
				}
				k++
			}
			j = k + 2
		}
	}
}

// cClass is the C locale's test for the [:name:] class, nil for a name
// it does not have.
func cClass[T byte | rune](name []T) func(rune) bool {
	b := make([]byte, len(name))
	for i, r := range name {
		b[i] = byte(r)
	}
	between := func(c, lo, hi rune) bool { return lo <= c && c <= hi }
	upper := func(c rune) bool { return between(c, 'A', 'Z') }
	lower := func(c rune) bool { return between(c, 'a', 'z') }
	digit := func(c rune) bool { return between(c, '0', '9') }
	alpha := func(c rune) bool { return upper(c) || lower(c) }
	graph := func(c rune) bool { return between(c, '!', '~') }
	switch string(b) {
	case "upper":
		return upper
	case "lower":
		return lower
	case "alpha":
		return alpha
	case "digit":
		return digit
	case "xdigit":
		return func(c rune) bool { return digit(c) || between(c|0x20, 'a', 'f') }
	case "space":
		return func(c rune) bool { return c == ' ' || between(c, '\t', '\r') }
	case "print":
		return func(c rune) bool { return between(c, ' ', '~') }
	case "graph":
		return graph
	case "blank":
		return func(c rune) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		return func(c rune) bool { return c < ' ' || c == 0x7f }
	case "punct":
		return func(c rune) bool { return graph(c) && !alpha(c) && !digit(c) }
	case "alnum":
		return func(c rune) bool { return alpha(c) || digit(c) }
	}
	return nil
}
