package du

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// Excluder holds --exclude and --exclude-from patterns, matched as GNU du
// matches them: fnmatch without FNM_PATHNAME (so * also matches /), against
// the whole path and against each part of it that follows a /.
type Excluder struct {
	patterns []string
}

// Add adds the pattern p.
func (x *Excluder) Add(p string) { x.patterns = append(x.patterns, p) }

// HasPatterns reports whether any pattern was added.
func (x *Excluder) HasPatterns() bool { return len(x.patterns) > 0 }

// AddFile reads one pattern per line from name ("-" for standard input).
func (x *Excluder) AddFile(name string, stdin io.Reader) error {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			x.Add(line)
		}
	}
	return sc.Err()
}

// Excluded reports whether a pattern matches path.
func (x *Excluder) Excluded(path string) bool {
	for _, p := range x.patterns {
		if fnmatch(p, path) {
			return true
		}
		for i := 0; i < len(path); i++ {
			if path[i] == '/' && i+1 < len(path) && path[i+1] != '/' && fnmatch(p, path[i+1:]) {
				return true
			}
		}
	}
	return false
}

// fnmatch reports whether name matches the shell pattern p with no flags:
// * and ? match any byte, / included; [...] and [!...] classes with ranges;
// a backslash quotes the next byte.
func fnmatch(p, name string) bool {
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
func matchClass(p string, i int, c byte) (ok bool, next int, valid bool) {
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
