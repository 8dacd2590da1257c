package du

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Excluder holds --exclude and --exclude-from patterns, matched as GNU du
// matches them: fnmatch without FNM_PATHNAME (so * also matches /), against
// the whole path and against each part of it that follows a /.
type Excluder struct {
	patterns []string
	// UTF8 reports whether du's locale is UTF-8, where glibc's fnmatch
	// matches characters, not only bytes; nil for bytes only.
	UTF8 func() bool
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
		if x.match(p, path) {
			return true
		}
		for i := 0; i < len(path); i++ {
			if path[i] == '/' && i+1 < len(path) && path[i+1] != '/' && x.match(p, path[i+1:]) {
				return true
			}
		}
	}
	return false
}

// match is glibc's fnmatch: in a multibyte locale it matches characters,
// then bytes if that fails or either string is not valid in the charset
// (posix/fnmatch.c). The two differ only where a ? or [ meets a
// character of several bytes; glibc's decoder also takes five- and
// six-byte forms, which are no characters here.
func (x *Excluder) match(p, name string) bool {
	if fnmatch(p, name) {
		return true
	}
	return x.UTF8 != nil && strings.ContainsAny(p, "?[") && !ascii(name) &&
		utf8.ValidString(p) && utf8.ValidString(name) && x.UTF8() && fnmatchChars(p, name)
}

// ascii reports whether s is all ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
