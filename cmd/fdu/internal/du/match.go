package du

import (
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Excluder holds --exclude and --exclude-from patterns, matched as GNU du
// matches them (gnulib's exclude module): a pattern with a ?, * or [ not
// quoted by fnmatch without FNM_PATHNAME (so * also matches /), against
// the whole path and each part of it that follows a / not followed by
// another; any other as the name it spells, backslashes taken away,
// against the whole path and the part after each /.
type Excluder struct {
	patterns []string
	names    []string
	// UTF8 reports whether du's locale is UTF-8, where glibc's fnmatch
	// matches characters, not only bytes; nil for bytes only.
	UTF8 func() bool
}

// Add adds the pattern p, which ends at a NUL as C's strings do.
func (x *Excluder) Add(p string) {
	if i := strings.IndexByte(p, 0); i >= 0 {
		p = p[:i]
	}
	if wildcards(p) {
		x.patterns = append(x.patterns, p)
	} else {
		x.names = append(x.names, unescape(p))
	}
}

// wildcards reports whether gnulib takes p for a pattern
// (fnmatch_pattern_has_wildcards): a ?, * or [ not after a backslash.
func wildcards(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '?', '*', '[':
			return true
		}
	}
	return false
}

// unescape is p without the backslash before each character; a trailing
// one stays.
func unescape(p string) string {
	b := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b = append(b, p[i])
	}
	return string(b)
}

// HasPatterns reports whether any pattern was added.
func (x *Excluder) HasPatterns() bool { return len(x.patterns)+len(x.names) != 0 }

// AddFile reads one pattern per line from name ("-" for standard input),
// as du reads them: without the line's trailing white space (C's
// isspace), blank lines skipped.
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
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimRight(line, " \t\v\f\r"); line != "" {
			x.Add(line)
		}
	}
	return nil
}

// Excluded reports whether a pattern matches path.
func (x *Excluder) Excluded(path string) bool {
	for _, n := range x.names {
		for s := path; ; {
			if s == n {
				return true
			}
			i := strings.IndexByte(s, '/')
			if i < 0 {
				break
			}
			s = s[i+1:]
		}
	}
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
	return x.UTF8 != nil && strings.ContainsAny(p, "?[") && utf8.ValidString(name) &&
		utf8.RuneCountInString(name) != len(name) && utf8.ValidString(p) && x.UTF8() && fnmatchChars(p, name)
}
