package du

import (
	"slices"
	"strings"
	"testing"
)

// TestFnmatchAsGNUDu: which names of a directory each pattern excludes,
// as GNU du 9.1 (glibc 2.36's fnmatch, in C) excluded them: bracket
// expressions with ] first, negated with ! or ^, ranges with an escaped
// or a missing end, reversed ranges, unclosed or malformed brackets,
// classes, backslashes, and stars and question marks. Made with
//
//	mkdir m && cd m && touch ']' a b c z '\' '[' '[a' 'a[' abc aXbYc ab '^' '!' 'a\' ./- d \
//		'[a-' '[\' '[a-\' 1 A : '[[-' && cd ..
//	LC_ALL=C du -a --exclude="$p" m/ | cut -f2
//
// (./-, since touch takes - for its standard output; the operand m/,
// which no one-character pattern matches whole), the names missing from
// the listing being the ones excluded.
func TestFnmatchAsGNUDu(t *testing.T) {
	names := []string{"]", "a", "b", "c", "z", `\`, "[", "[a", "a[", "abc", "aXbYc", "ab", "^", "!", `a\`,
		"-", "d", "[a-", `[\`, `[a-\`, "1", "A", ":", "[[-"}
	a := strings.Repeat("a", 2046)
	for _, c := range []struct{ pattern, excluded string }{
		{"[]-]", "- ]"},
		{"[!]]", `! - 1 : A [ \ ^ a b c d z`},
		{"[a-]", "- a"},
		{`[\]]`, "]"},
		{`[a\-z]`, "- a z"},
		{`[\a-c]`, "a b c"},
		{`[a-\c]`, "a b c"},
		{`\`, `\`},
		{`a\`, `a\`},
		{`\\`, `\`},
		{"[", "["},
		{"[a", "[a"},
		{"a[", "a["},
		{"*a", "[a a"},
		{"a*b*c", "aXbYc abc"},
		{"[z-a]", ""},
		{"[^a]", `! - 1 : A [ \ ] ^ b c d z`},
		{"[!a-b]", `! - 1 : A [ \ ] ^ c d z`},
		{"[a-c]", "a b c"},
		{"[b-c]", "b c"},
		{`\a`, "a"},
		{`\[`, "["},
		{"a*", `a aXbYc a[ a\ ab abc`},
		{"*c", "aXbYc abc c"},
		{"?b*", "ab abc"},
		{"a?", `a[ a\ ab`},
		{"[]]", "]"},
		{"[!]", ""},
		{"[]", ""},
		{"[-a]", "- a"},
		// A bracket that runs out after a backslash or a range's -
		// matches nothing; one that runs out otherwise is a [.
		{"[a-", ""},
		{`[\`, ""},
		{`[a-\`, ""},
		{`[a\`, ""},
		{"[?-", ""},
		{"[[-", "[[-"},
		// A trailing backslash matches nothing in a pattern, and itself
		// in a name (no ?, * or [: compared as it is).
		{`*\`, ""},
		{`*\b`, "ab b"},
		{`\a*`, `a aXbYc a[ a\ ab abc`},
		{`?\b`, "ab"},
		{`?\`, ""},
		{`[a-\b-d]`, "- a b d"},
		{`[a-\bx]`, "a b"},
		{`[!a-\b-d]`, `! 1 : A [ \ ] ^ c z`},
		// Classes, equivalence classes and collating symbols, those C
		// has and not, and a bracket read past the element that matched.
		{"[[:alpha:]]", "A a b c d z"},
		{"[![:alpha:]]", `! - 1 : [ \ ] ^`},
		{"[[:digit:]]", "1"},
		{"[[:upper:]]", "A"},
		{"[[:punct:]]", `! - : [ \ ] ^`},
		{"[[:foo:]]", ""},
		{"[a[:foo:]]", "a"},
		{"[![:combining:]]", ""},
		{"[[:z:]", ": [ z"},
		{"[[=a=]]", "a"},
		{"[a[=]", "["},
		{"[[.a.]]", "a"},
		{"[[.a.]-]", "-"},
		{"[[.a.]-c]", "a b c"},
		{"[[.ab.]]", ""},
		{"[a-[.c.]]", "a b c"},
		{"[a[=b=]]", "a b"},
		{"[a[:alpha:]]", "A a b c d z"},
		{"[a[:z:]]", ""},
		{"[a[.b.]]", "a b"},
		{"[a[.].]]", "] a"},
		{"[a-[.cd.]]", ""},
		{"[a-[.c]", ""},
		{"[[.a.]-c", ""},
		// glibc reads a class name of up to 2048 letters, and past an
		// element that matched one of up to 2046.
		{"[![:" + a + "a]", "! - 1 A \\ ] ^ b c d z"},
		{"[![:" + a + "aa]", ""},
		{"[b[:" + a + "]", ": [ a b"},
		{"[b[:" + a + "a]", ": [ a"},
	} {
		var x Excluder
		x.Add(c.pattern)
		var got []string
		for _, n := range names {
			if x.Excluded("m/" + n) {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		if s := strings.Join(got, " "); s != c.excluded {
			t.Errorf("--exclude=%q excludes %q, want %q", c.pattern, s, c.excluded)
		}
	}
}

// TestFnmatchCaretLiteral: with POSIXLY_CORRECT set glibc's [^...] is no
// negation; GNU du 9.1 with it and --exclude='[^a]' excluded ^ and a.
func TestFnmatchCaretLiteral(t *testing.T) {
	defer func(v bool) { caretNegates = v }(caretNegates)
	caretNegates = false
	for _, c := range []struct {
		name string
		want bool
	}{{"^", true}, {"a", true}, {"b", false}} {
		if got := fnmatch("[^a]", c.name); got != c.want {
			t.Errorf("[^a] against %q: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFnmatchClassesAsGNUDu: the characters each class of the C locale
// holds, as GNU du 9.1 excluded the names x<c> (c each byte from 1 to
// 127 but /, and 0x80, 0xa0, 0xff) with --exclude='x[[:class:]]', listed
// with du -a -0 since names hold tabs and newlines.
func TestFnmatchClassesAsGNUDu(t *testing.T) {
	for _, c := range []struct{ class, held string }{
		{"alnum", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"},
		{"alpha", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"},
		{"blank", "\x09 "},
		{"cntrl", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f"},
		{"digit", "0123456789"},
		{"graph", "!\"#$%&'()*+,-.0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"},
		{"lower", "abcdefghijklmnopqrstuvwxyz"},
		{"print", " !\"#$%&'()*+,-.0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"},
		{"punct", "!\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~"},
		{"space", "\x09\x0a\x0b\x0c\x0d "},
		{"upper", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
		{"xdigit", "0123456789ABCDEFabcdef"},
	} {
		var held []byte
		for b := 1; b < 256; b++ {
			if b == '/' || b > 0x80 && b != 0xa0 && b != 0xff {
				continue
			}
			if fnmatch("x[[:"+c.class+":]]", "x"+string([]byte{byte(b)})) {
				held = append(held, byte(b))
			}
		}
		if string(held) != c.held {
			t.Errorf("[:%s:] holds %q, want %q", c.class, held, c.held)
		}
	}
}
