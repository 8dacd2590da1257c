package du

import "unsafe"

// fnmatch reports whether name matches the shell pattern p with no flags:
// * and ? match any byte, / included; [...] and [!...] classes with ranges;
// a backslash quotes the next byte.
func fnmatch(p, name string) bool { return match(bytesOf(p), bytesOf(name)) }

// fnmatchChars is fnmatch over characters: ? matches one, of any length
// in UTF-8, and a class holds characters. Its ranges are in code point
// order, as in C.UTF-8, whose collation has no rules.
func fnmatchChars(p, name string) bool { return match([]rune(p), []rune(name)) }

// bytesOf is s's bytes, not copied: match only reads them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// match is fnmatch over bytes or characters.
func match[T byte | rune](p, name []T) bool {
	px, nx := 0, 0
	starP, starN := -1, -1
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
					if ok, next, valid := matchClass(p, px, name[nx]); valid {
						if ok {
							px, nx = next, nx+1
							continue
						}
					} else if name[nx] == '[' { // an unclosed [ matches itself
						px++
						nx++
						continue
					}
				}
			case '\\':
				if px+1 < len(p) {
					if nx < len(name) && name[nx] == p[px+1] {
						px += 2
						nx++
						continue
					}
					break
				}
				fallthrough
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starP >= 0 && starN < len(name) {
			starN++
			px, nx = starP+1, starN
			continue
		}
		return false
	}
	return true
}

// matchClass matches c against the bracket expression at p[i]. valid is
// false when the expression is not closed.
func matchClass[T byte | rune](p []T, i int, c T) (ok bool, next int, valid bool) {
	j := i + 1
	negate := false
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		negate = true
		j++
	}
	first := true
	for j < len(p) {
		if p[j] == ']' && !first {
			return ok != negate, j + 1, true
		}
		first = false
		lo := p[j]
		if lo == '\\' && j+1 < len(p) {
			j++
			lo = p[j]
		}
		j++
		hi := lo
		if j+1 < len(p) && p[j] == '-' && p[j+1] != ']' {
			hi = p[j+1]
			if hi == '\\' && j+2 < len(p) {
				hi = p[j+2]
				j++
			}
			j += 2
		}
		if lo <= c && c <= hi {
			ok = true
		}
	}
	return false, 0, false
}
