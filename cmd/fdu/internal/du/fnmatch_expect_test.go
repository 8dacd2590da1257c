package du

import (
	"slices"
	"strings"
	"testing"
)

// TestFnmatchAsGNUDu: which names of a directory each pattern excludes,
// as GNU du 9.1 (glibc's fnmatch, in C) excluded them: bracket
// expressions with ] first, negated with ! or ^, ranges with an escaped
// or a missing end, reversed ranges, unclosed brackets, backslashes, and
// stars and question marks. Made with
//
//	mkdir m && cd m && touch ']' a b c z '\' '[' '[a' 'a[' abc aXbYc ab '^' '!' 'a\' && cd ..
//	LC_ALL=C du -a --exclude="$p" m/ | cut -f2
//
// (the operand m/, which no one-character pattern matches whole), the
// names missing from the listing being the ones excluded.
func TestFnmatchAsGNUDu(t *testing.T) {
	names := []string{"]", "a", "b", "c", "z", `\`, "[", "[a", "a[", "abc", "aXbYc", "ab", "^", "!", `a\`}
	for _, c := range []struct{ pattern, excluded string }{
		{"[]-]", "]"},
		{"[!]]", `! [ \ ^ a b c z`},
		{"[a-]", "a"},
		{`[\]]`, "]"},
		{`[a\-z]`, "a z"},
		{`[\a-c]`, "a b c"},
		{`[a-\c]`, "a b c"},
		{`\`, `\`},
		{`a\`, `a\`},
		{"[", "["},
		{"[a", "[a"},
		{"a[", "a["},
		{"*a", "[a a"},
		{"a*b*c", "aXbYc abc"},
		{"[z-a]", ""},
		{"[^a]", `! [ \ ] ^ b c z`},
		{"[!a-b]", `! [ \ ] ^ c z`},
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
		{"[-a]", "a"},
	} {
		x := Excluder{patterns: []string{c.pattern}}
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
