package du

import (
	"testing"
	"unicode/utf8"
)

// TestMatchCharacters: in a UTF-8 locale glibc's fnmatch matches a
// pattern against characters, and failing that bytes: both count.
func TestMatchCharacters(t *testing.T) {
	utf8Locale := func() bool { return true }
	for _, c := range []struct {
		p, name   string
		inC, inU8 bool
	}{
		{"cjk-??", "cjk-名前", false, true},
		{"cjk-??????", "cjk-名前", true, true},
		{"cjk-?前", "cjk-名前", false, true},
		{"cjk-[名]前", "cjk-名前", false, true},
		{"cjk-[!x]??", "cjk-名前", false, false},
		{"cjk-[!x]?????", "cjk-名前", true, true},
		{"[à-ä]", "ã", false, true},
		{"?", "\xff", true, true},
		{"???", "é\xff", true, true},
		{"??", "é\xff", false, false},
		{"?", "é\xff", false, false}, // not UTF-8: bytes only
		{"a*b", "a名b", true, true},
	} {
		x := Excluder{patterns: []string{c.p}}
		if got := x.Excluded(c.name); got != c.inC {
			t.Errorf("%q against %q in C: %v", c.p, c.name, got)
		}
		x.UTF8 = utf8Locale
		if got := x.Excluded(c.name); got != c.inU8 {
			t.Errorf("%q against %q in UTF-8: %v", c.p, c.name, got)
		}
	}
}

// FuzzFnmatch: over ASCII, bytes and characters are one; a pattern
// matches what it matched as bytes in a UTF-8 locale too; no input
// makes it fail.
func FuzzFnmatch(f *testing.F) {
	for _, s := range [][2]string{{"*.go", "a.go"}, {"[!a-c]?", "d名"}, {"\\*[", "*["}, {"cjk-??", "cjk-名前"}, {"[]-]", "-"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, name string) {
		bytes := fnmatch(p, name)
		if ascii(p) && ascii(name) && fnmatchChars(p, name) != bytes {
			t.Errorf("%q against %q: bytes %v, characters %v", p, name, bytes, !bytes)
		}
		x := Excluder{patterns: []string{p}, UTF8: func() bool { return true }}
		if bytes && !x.match(p, name) {
			t.Errorf("%q against %q: a match as bytes lost in UTF-8", p, name)
		}
		if utf8.ValidString(p) && utf8.ValidString(name) {
			fnmatchChars(p, name)
		}
	})
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
