package du

import (
	"slices"
	"strings"
	"testing"
)

// excludeTree is the tree the expectations below were made on, as du -a
// lists it from the operand t: every path, parents before children.
var excludeTree = []string{"t", "t/[x]", "t/a", "t/b", "t/b/f", "t/b.go", "t/sub", "t/sub/c.go",
	"t/sub/d", "t/sub/t", "t/sub/t/e"}

// TestExcludeAsGNUDu: the paths GNU du 9.1 lists with each --exclude
// pattern, so the test runs where no GNU du is installed. Made with
//
//	mkdir -p t/sub/t t/b && touch t/a t/b.go t/sub/c.go t/sub/d t/sub/t/e 't/[x]' t/b/f
//	LC_ALL=C du -a --exclude="$p" t | cut -f2 | sort
//
// (the absolute patterns with the operand /dev/shm/g43/t). A pattern
// matches the whole path or any part after a slash; * matches slashes
// too; an excluded directory is not entered; the operand itself can be
// excluded.
func TestExcludeAsGNUDu(t *testing.T) {
	const all = "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d t/sub/t t/sub/t/e"
	for _, c := range []struct{ pattern, want string }{
		{"t/*", "t"},
		{"*.go", "t t/[x] t/a t/b t/b/f t/sub t/sub/d t/sub/t t/sub/t/e"},
		{"sub", "t t/[x] t/a t/b t/b.go t/b/f"},
		{"sub/*", "t t/[x] t/a t/b t/b.go t/b/f t/sub"},
		{"t", ""},
		{"/dev/shm/g43/t/sub", "t t/[x] t/a t/b t/b.go t/b/f"},
		{"/dev/shm/g43/t/sub/*", "t t/[x] t/a t/b t/b.go t/b/f t/sub"},
		{"/dev/shm/g43/t/a", "t t/[x] t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d t/sub/t t/sub/t/e"},
		{"t/sub", "t t/[x] t/a t/b t/b.go t/b/f"},
		{"b", "t t/[x] t/a t/b.go t/sub t/sub/c.go t/sub/d t/sub/t t/sub/t/e"},
		{"?", ""},
		{"[ab]", "t t/[x] t/b.go t/sub t/sub/c.go t/sub/d t/sub/t t/sub/t/e"},
		{"[!a]", ""},
		{`\[x]`, "t t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d t/sub/t t/sub/t/e"},
		{"[x]", all},
		{"a*", "t t/[x] t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d t/sub/t t/sub/t/e"},
		{"*/d", "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/t t/sub/t/e"},
		{"sub/d", "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/t t/sub/t/e"},
		{"t/sub/d", "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/t t/sub/t/e"},
		{"*t", ""},
		{"e", "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d t/sub/t"},
		{"sub/t", "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d"},
		{"t/e", "t t/[x] t/a t/b t/b.go t/b/f t/sub t/sub/c.go t/sub/d t/sub/t"},
		{"", all},
	} {
		var x Excluder
		x.Add(c.pattern)
		root := "t"
		if strings.HasPrefix(c.pattern, "/") {
			root = "/dev/shm/g43/t"
		}
		var got []string
		for _, p := range excludeTree {
			if !listed(&x, root, root+strings.TrimPrefix(p, "t")) {
				continue
			}
			got = append(got, p)
		}
		slices.Sort(got)
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("--exclude=%q: %q, want %q", c.pattern, s, c.want)
		}
	}
}

// listed reports whether du lists path, found from the operand root:
// neither it nor a directory above it, the operand included, is excluded.
func listed(x *Excluder, root, path string) bool {
	for i := len(path); i >= len(root); i = strings.LastIndexByte(path[:i], '/') {
		if x.Excluded(path[:i]) {
			return false
		}
	}
	return true
}

// TestExcludeParts: the parts of a path a pattern is tried against, at
// their edges, as gnulib's exclude module cuts them (GNU du 9.1 with the
// path as its operand): a pattern with a wildcard against the whole path
// and what follows each slash not followed by another; one without, read
// as the name it spells, against the whole path and what follows each
// slash, even an empty rest; zero, one and two patterns.
func TestExcludeParts(t *testing.T) {
	for _, c := range []struct {
		patterns []string
		path     string
		want     bool
	}{
		{nil, "a", false},
		{[]string{"a"}, "a", true},
		{[]string{"a"}, "t/a", true},
		{[]string{"a"}, "t/a/", false},
		{[]string{"a/"}, "t/a/", true},
		{[]string{"/a"}, "t//a", true},
		{[]string{"a"}, "t//a", true},
		{[]string{"?"}, "t//a", true},
		{[]string{"/?"}, "t//a", false},
		{[]string{"?"}, "t/a/", false},
		{[]string{""}, "t/a/", true},
		{[]string{""}, "t/a", false},
		{[]string{`\a`}, "t/a", true},
		{[]string{"t/a"}, "x/t/a", true},
		{[]string{"a"}, "/", false},
		{[]string{"/"}, "/", true},
		{[]string{"x", "a"}, "t/a", true},
		{[]string{"a", "x"}, "t/a", true},
		{[]string{"x", "y"}, "t/a", false},
		{[]string{"x", "?"}, "t/a", true},
		{[]string{"?", "x"}, "t/a", true},
	} {
		var x Excluder
		for _, p := range c.patterns {
			x.Add(p)
		}
		if got := x.Excluded(c.path); got != c.want {
			t.Errorf("%q against %q: %v, want %v", c.patterns, c.path, got, c.want)
		}
		if got := x.HasPatterns(); got != (len(c.patterns) > 0) {
			t.Errorf("%q: HasPatterns %v", c.patterns, got)
		}
	}
}

// TestExcludeFromFile: du -X reads a pattern a line, without the line's
// trailing white space, blank lines skipped, each ending at a NUL as C's
// strings do: with the first file below GNU du 9.1 excluded a, c, d and \
// (the unescaped \\), not b, nor the operand m/; with the second, whose
// NUL leaves an empty pattern, it excluded m/, whose empty part after
// the slash that name matches.
func TestExcludeFromFile(t *testing.T) {
	for _, c := range []struct {
		file string
		want map[string]bool
	}{
		{"a  \n b\n\t\n\\\\\nc\t\r\nd\x00e\n",
			map[string]bool{"a": true, "b": false, "c": true, `\`: true, "d": true, "": false}},
		{"\x00b\n", map[string]bool{"": true}},
	} {
		var x Excluder
		if err := x.AddFile("-", strings.NewReader(c.file)); err != nil {
			t.Fatal(err)
		}
		for name, want := range c.want {
			if got := x.Excluded("m/" + name); got != want {
				t.Errorf("-X with %q: m/%s excluded %v, want %v", c.file, name, got, want)
			}
		}
	}
}
