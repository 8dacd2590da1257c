package browse

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// evil is a name that, written to a terminal, sets the title, clears the
// screen and paints FAKE at row 5; evilShown is how it is shown.
const (
	evil      = "X\x1b]2;PWN\x07\x1b[2J\x1b[5;10HFAKE"
	evilShown = `X\x1b]2;PWN\a\x1b[2J\x1b[5;10HFAKE`
)

// unescape reads escape's output back: the test that it loses nothing,
// so that two names that differ show differently.
func unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("a lone backslash at %d", i)
		}
		if k := strings.IndexByte(`\abtnvfr`, s[i+1]); k >= 0 {
			b.WriteByte("\\\a\b\t\n\v\f\r"[k])
			i += 2
			continue
		}
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
		if n == 0 || i+2+n > len(s) {
			return "", fmt.Errorf("a bad escape at %d: %q", i, s[i:])
		}
		v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
		if err != nil {
			return "", err
		}
		if s[i+1] == 'x' {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
		i += 2 + n
	}
	return b.String(), nil
}

func TestEscapeRules(t *testing.T) {
	check := func(in, want string) {
		t.Helper()
		if got := string(esc(in)); got != want {
			t.Errorf("esc(%q) = %q, want %q", in, got, want)
		}
	}
	named := map[int]string{7: `\a`, 8: `\b`, 9: `\t`, 10: `\n`, 11: `\v`, 12: `\f`, 13: `\r`}
	for c := range 0x20 {
		want, ok := named[c]
		if !ok {
			want = fmt.Sprintf(`\x%02x`, c)
		}
		check("a"+string(rune(c))+"b", "a"+want+"b")
	}
	check("a\x7fb", `a\x7fb`)
	for r := rune(0x80); r <= 0x9f; r++ {
		check("a"+string(r)+"b", fmt.Sprintf(`a\u%04xb`, r))
	}
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c} {
		check("a"+string(r)+"b", fmt.Sprintf(`a\u%04xb`, r))
	}
	// Other format characters, the line and paragraph separators.
	for in, want := range map[string]string{
		"a\u200bb": `a\u200bb`, "\ufeffa": `\ufeffa`, "a\u00adb": `a\u00adb`, "a\u2060": `a\u2060`,
		"a\U000e0001b": `a\U000e0001b`, "a\u2028b\u2029": `a\u2028b\u2029`,
	} {
		check(in, want)
	}
	// Bytes that are not UTF-8: each alone, a truncated sequence, a
	// surrogate, an overlong slash; U+0085 itself and its byte differ.
	for in, want := range map[string]string{
		"\xff": `\xff`, "a\xc3": `a\xc3`, "\xc3(": `\xc3(`, "\xed\xa0\x80": `\xed\xa0\x80`,
		"\xf0\x9f\x98": `\xf0\x9f\x98`, "\xc0\xaf": `\xc0\xaf`, "\u0085\x85": `\u0085\x85`,
	} {
		check(in, want)
	}
	check(`a\b`, `a\\b`)
	check(`\`, `\\`)
	// Kept as they are: ASCII, wide characters, accents, emoji.
	for _, s := range []string{"a?b", "plain name.txt", "~!@#$%^&*()[]{}'\"", "日本語のファイル", "e\u0301", "naïve", "\u2764\ufe0f", "👍🏽", "\ufffd"} {
		check(s, s)
	}
	// A combining mark with nothing to combine with.
	check("\u0301x", `\u0301x`)
	check("/\u0301", `/\u0301`)
	check("a \u20dd", `a \u20dd`)
	check("\x1b\u0301", `\x1b\u0301`)
	check(`\`+"\u0301", `\\\u0301`)
	check(evil, evilShown)

	a, b, c := string(esc("a\nb")), string(esc("a?b")), string(esc(`a\nb`))
	if a != `a\nb` || b != `a?b` || c != `a\\nb` || a == b || b == c || a == c {
		t.Errorf("a<newline>b %q, a?b %q, a<backslash>nb %q: not all distinct", a, b, c)
	}
}

// samples are names escape must keep apart: every byte, every C0 and C1
// control and format character next to its look-alikes.
func samples() []string {
	s := []string{"", "a\nb", "a?b", `a\nb`, `a\\nb`, "a\\\nb", `\x1b`, "\x1b", `\u202e`, "\u202e", "\xff", `\xff`, "\ufffd",
		"\u0085", "\x85", "\xc2\x85", `\u0085`, "\u0301", `\u0301`, "e\u0301", "é", evil, evilShown}
	for c := range 256 {
		s = append(s, string([]byte{byte(c)}), "a"+string([]byte{byte(c)}))
	}
	for _, r := range []rune{0x80, 0x9f, 0x200e, 0x200f, 0x061c, 0x202a, 0x202e, 0x2066, 0x2069, 0xfeff, 0xe0001} {
		s = append(s, string(r), "x"+string(r)+"y")
	}
	return s
}

func TestEscapeRoundTrip(t *testing.T) {
	in := samples()
	rnd := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "\\", "x", "1", "b", "u", "\n", "\x1b", "\x7f", "\xff", "\xc3", "\u0085", "\u202e", "\u0301", "é", "日", "?", "/", " "}
	for range 5000 {
		var b strings.Builder
		for range rnd.Intn(12) {
			b.WriteString(alphabet[rnd.Intn(len(alphabet))])
		}
		in = append(in, b.String())
	}
	seen := map[string]string{}
	for _, s := range in {
		out := string(esc(s))
		if back, err := unescape(out); err != nil || back != s {
			t.Errorf("%q shows as %q, read back as %q (%v)", s, out, back, err)
		}
		if other, ok := seen[out]; ok && other != s {
			t.Errorf("%q and %q both show as %q", s, other, out)
		}
		seen[out] = s
		if again := escape(out, false); again != out {
			t.Errorf("put changes %q (of %q) into %q", out, s, again)
		}
	}
}

// checkShown fails unless out is what may reach a terminal: valid UTF-8,
// no C0 control, DEL, C1 control or format character, no combining mark
// first.
func checkShown(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%q shows as %q: not UTF-8", in, out)
	}
	for i, r := range out {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) || i == 0 && unicode.In(r, unicode.M) {
			t.Fatalf("%q shows as %q: %U at %d", in, out, r, i)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	sample := samples()
	for _, s := range sample {
		f.Add(s)
	}
	shown := map[string]string{}
	for _, s := range sample {
		shown[string(esc(s))] = s
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(esc(s))
		checkShown(t, s, out)
		if back, err := unescape(out); err != nil || back != s {
			t.Fatalf("%q shows as %q, read back as %q (%v)", s, out, back, err)
		}
		if other, ok := shown[out]; ok && other != s {
			t.Fatalf("%q and %q both show as %q", s, other, out)
		}
		if again := escape(out, false); again != out {
			t.Fatalf("put changes %q into %q", out, again)
		}
		checkShown(t, s, escape(s, false)) // put's check alone is safe too
	})
}

// cells fails unless every cell of the screen holds what escape lets
// through, and returns the screen as text.
func cells(t *testing.T, s tcell.SimulationScreen) string {
	t.Helper()
	cs, w, _ := s.GetContents()
	for i, c := range cs {
		for j, r := range c.Runes {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) || j == 0 && unicode.In(r, unicode.M) {
				t.Fatalf("the cell at %d,%d holds %U", i%w, i/w, r)
			}
		}
	}
	return strings.Join(text(s), "\n")
}

// TestPutEscapesAnyway: put escapes a control even in a string that was
// converted to shown by mistake.
func TestPutEscapesAnyway(t *testing.T) {
	b, s := newTest(t, 60, 5, Config{})
	s.Clear()
	b.put(0, 0, shown("\x1b[2J\u009b\u202eok"), b.styles.plain)
	s.Show()
	if got := text(s)[0]; got != `\x1b[2J\u009b\u202eok` {
		t.Errorf("drawn %q", got)
	}
	cells(t, s)
}

// TestMessagesEscaped: the errors a rescan and a deletion report, which
// carry paths, reach the screen escaped.
func TestMessagesEscaped(t *testing.T) {
	tr := testTree()
	tr = dutree.NewTree(dutree.Node{Name: tr.Path, Dir: dutree.NewDir(0, append(tr.Top.Entries(), dutree.Node{Name: evil, Dsize: 1 << 30, Asize: 1 << 30, Nlink: 1})...)})
	tr.Recount()
	pathErr := &fs.PathError{Op: "open", Path: "/r/" + evil, Err: errors.New("permission denied \u202e")}
	for _, c := range []struct {
		errs []dutree.Error
		err  error
		want string
	}{
		{nil, pathErr, "Rescan failed: open /r/" + evilShown + `: permission denied \u202e`},
		{[]dutree.Error{{Path: "/r/" + evil, Err: pathErr}}, nil, "the first, /r/" + evilShown + ": open /r/" + evilShown},
	} {
		b, s := newTest(t, 250, 20, Config{Tree: tr, Rescan: func(context.Context, string, *dutree.Node, *dutree.Progress) ([]dutree.Error, error) {
			return c.errs, c.err
		}})
		press(b, "r")
		b.draw()
		if all := cells(t, s); !strings.Contains(all, c.want) {
			t.Errorf("the screen lacks %q:\n%s", c.want, all)
		}
	}
}

// TestImportedNamesEscaped: names read by -f (an ncdu export, which any
// one may have written) are escaped wherever shown: the root's in the
// header, an entry's in the list, the details and the file's own name.
func TestImportedNamesEscaped(t *testing.T) {
	export := `[1,2,{"progname":"x"},[{"name":"/r\u001b]2;T\u0007\u202e","dev":1},` +
		`{"name":"X\u001b]2;PWN\u0007\u001b[2J\u001b[5;10HFAKE\u0085\u200f","dsize":4096},` +
		`{"name":"a\nb"},{"name":"a?b"},{"name":"a\\nb"}]]`
	tr, _, err := dutree.Read(strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	b, s := newTest(t, 200, 30, Config{Tree: tr, Imported: "saved\x1b[2J.json"})
	all := cells(t, s)
	for _, want := range []string{`--- /r\x1b]2;T\a\u202e `, evilShown + `\u0085\u200f`, ` a\nb`, ` a?b`, ` a\\nb`} {
		if !strings.Contains(all, want) {
			t.Errorf("the screen lacks %q:\n%s", want, all)
		}
	}
	press(b, "i")
	b.draw()
	if all := cells(t, s); !strings.Contains(all, `Path:        /r\x1b]2;T\a\u202e/`+evilShown) {
		t.Errorf("details:\n%s", all)
	}
	press(b, "i")
	press(b, "d")
	b.draw()
	if all := cells(t, s); !strings.Contains(all, `read from saved\x1b[2J.json, not scanned`) {
		t.Errorf("the read-only message:\n%s", all)
	}
}

// confirmBox is the text of the confirmation box's lines, without the frame.
func confirmBox(t *testing.T, s tcell.SimulationScreen) []string {
	t.Helper()
	lines := text(s)
	for y, l := range lines {
		x0 := strings.Index(l, "+-- Confir")
		if x0 < 0 {
			continue
		}
		x1 := strings.LastIndex(l, "+")
		if x1 <= x0 { // a frame wider than the screen: to its edge
			x1 = len(l)
		}
		var out []string
		for _, row := range lines[y+1:] {
			if len(row) <= x0 || row[x0] != '|' {
				break
			}
			out = append(out, strings.TrimPrefix(strings.TrimRight(row[x0+1:min(x1, len(row))], " |"), " "))
		}
		return out
	}
	t.Fatalf("no confirmation:\n%s", strings.Join(lines, "\n"))
	return nil
}

// TestConfirmShowsPath: the confirmation shows the whole path of what it
// deletes, wrapped, or on a screen too small for it its start and its end;
// the keys stay in sight.
func TestConfirmShowsPath(t *testing.T) {
	tree := func(names ...string) *dutree.Tree {
		n := dutree.Node{Name: names[len(names)-1], Dsize: 10, Asize: 10, Nlink: 1}
		for i := len(names) - 2; i >= 0; i-- {
			n = dutree.Node{Name: names[i], Dir: dutree.NewDir(0, []dutree.Node{n}...)}
		}
		tr := dutree.NewTree(n)
		tr.Recount()
		return tr
	}
	long := func(n int) string { return strings.Repeat("middle-", n) + "part" }
	for _, c := range []struct {
		w, h  int
		names []string
		whole bool
	}{
		{10, 5, []string{"/start-of-the-path", long(3), "the-name.end"}, false},
		{10, 5, []string{"/r", "many"}, true},
		{12, 6, []string{"/start-of-the-path", long(3), "dir\x1bname", "the-name.end"}, false},
		{40, 10, []string{"/start-of-the-path", long(40), "the-name.end"}, false},
		{200, 50, []string{"/start-of-the-path", long(3), "the-name.end"}, true},
		{200, 50, []string{"/start-of-the-path", long(100), "the-name.end"}, true},
		{200, 50, []string{"/start-of-the-path", long(1500), "the-name.end"}, false},
	} {
		tr := tree(c.names...)
		b, s := newTest(t, c.w, c.h, Config{Tree: tr})
		for range len(c.names) - 2 {
			b.enter()
		}
		press(b, "d")
		b.draw()
		box := confirmBox(t, s)
		path := string(esc(strings.Join(c.names, "/")))
		keys := len(box) - 1
		for keys >= 0 && !strings.HasPrefix(box[keys], "y:") {
			keys--
		}
		if keys < 1 {
			t.Errorf("%dx%d: no path or no keys:\n%s", c.w, c.h, strings.Join(box, "\n"))
			continue
		}
		q := strings.Join(box[:keys], "")
		switch {
		case c.whole && !strings.HasSuffix(q, path+"?"):
			t.Errorf("%dx%d: the path is not whole:\n%s", c.w, c.h, strings.Join(box, "\n"))
		case !strings.HasPrefix(strings.TrimPrefix(q, "Delete "), path[:min(3, c.w-3)]) || !strings.HasSuffix(q, path[len(path)-min(8, c.w-4):]+"?"):
			t.Errorf("%dx%d: not the path's start and end:\n%s", c.w, c.h, strings.Join(box, "\n"))
		case c.w >= 40 && !strings.HasPrefix(box[0], "Delete /start-of-the-path") || c.w >= 20 && !strings.HasSuffix(box[keys-1], "/the-name.end?"):
			t.Errorf("%dx%d: the word and the name not whole:\n%s", c.w, c.h, strings.Join(box, "\n"))
		}
	}
}

// TestProgressEscaped: the scan's progress screen shows the directory and
// the path being read escaped.
func TestProgressEscaped(t *testing.T) {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(100, 24)
	p := &dutree.Progress{}
	cur := "/d/" + evil + "\u202e"
	p.Current.Store(&cur)
	drawProgress(&browser{s: s, styles: newStyles(false)}, "/d\x1b[2J", p, 0, "stop")
	all := cells(t, s)
	for _, want := range []string{`Scanning:  /d\x1b[2J`, `Current:   /d/` + evilShown + `\u202e`} {
		if !strings.Contains(all, want) {
			t.Errorf("progress lacks %q:\n%s", want, all)
		}
	}
}
