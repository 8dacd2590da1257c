package browse

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// testTree is a tree made by hand: entries whose orders by size, name,
// count and time all differ.
func testTree() *dutree.Tree {
	file := func(name string, size, mtime int64, f dutree.Flags) dutree.Node {
		return dutree.Node{Name: name, Asize: size, Dsize: size, Mtime: mtime, Flags: f, Nlink: 1}
	}
	dir := func(name string, mtime int64, kids ...dutree.Node) dutree.Node {
		return dutree.Node{Name: name, Dsize: 10, Asize: 10, Mtime: mtime, Dir: dutree.NewDir(0, kids...)}
	}
	t := dutree.NewTree(dir("/r", 1,
		dir("many", 2, file("a", 1, 2, 0), file("b", 1, 2, 0), file("c", 1, 2, 0)),
		file("big", 5000, 3, 0),
		file(".dot", 300, 9, 0),
		file("link", 4, 1, dutree.Symlink|dutree.NotReg),
		dir("empty", 5),
		file("excl", 0, 0, dutree.Excluded),
	))
	t.Recount()
	return t
}

func newTest(t *testing.T, w, h int, cfg Config) (*browser, tcell.SimulationScreen) {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Fini)
	s.SetSize(w, h)
	if cfg.Tree == nil {
		cfg.Tree = testTree()
	}
	b := newBrowser(s, cfg)
	b.draw()
	return b, s
}

// text is the screen as lines of text.
func text(s tcell.SimulationScreen) []string {
	cells, w, h := s.GetContents()
	lines := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := range w {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				b.WriteString(string(r))
			}
		}
		lines[y] = strings.TrimRight(b.String(), " ")
	}
	return lines
}

func order(b *browser) string {
	var names []string
	for _, i := range b.view {
		names = append(names, b.kids[i].Name)
	}
	return strings.Join(names, " ")
}

func press(b *browser, keys string) {
	for _, r := range keys {
		b.key(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
	}
}

func TestSortOrders(t *testing.T) {
	b, _ := newTest(t, 100, 30, Config{})
	for _, c := range []struct{ keys, want string }{
		{"", "big .dot many empty link excl"},   // size, largest first; ties by name
		{"s", "excl link empty many .dot big"},  // again: smallest first
		{"n", ".dot big empty excl link many"},  // name, A to Z
		{"n", "many link excl empty big .dot"},  // again: Z to A
		{"C", "many .dot big empty excl link"},  // items, most first
		{"M", ".dot empty big many link excl"},  // newest first (many's newest is its files')
		{"st", "many empty big .dot link excl"}, // directories first, then by size
	} {
		press(b, c.keys)
		if got := order(b); got != c.want {
			t.Errorf("after %q: %s, want %s", c.keys, got, c.want)
		}
	}
}

func TestHiddenAndApparent(t *testing.T) {
	b, _ := newTest(t, 100, 30, Config{})
	press(b, "e")
	if got := order(b); got != "big many empty link" {
		t.Errorf("hidden and excluded off: %s", got)
	}
	press(b, "e")
	if got := order(b); !strings.Contains(got, ".dot") {
		t.Errorf("e again: %s", got)
	}
}

func TestMarks(t *testing.T) {
	tr := testTree()
	want := map[string]rune{"many": ' ', "big": ' ', "link": '@', "empty": 'e', "excl": '<'}
	for _, n := range tr.Top.Entries() {
		if w, ok := want[n.Name]; ok && mark(&n) != w {
			t.Errorf("%s: mark %q, want %q", n.Name, mark(&n), w)
		}
	}
	for f, w := range map[dutree.Flags]rune{dutree.ReadError: '!', dutree.ErrorBelow: '.', dutree.OtherFS: '>', dutree.HardLink: 'H'} {
		if got := mark(&dutree.Node{Flags: f}); got != w {
			t.Errorf("flags %b: %q, want %q", f, got, w)
		}
	}
}

// TestFitsNarrowScreens draws every column at 80x24 and at 40x10: no line
// wider than the screen, the footer last, a name still shown.
func TestFitsNarrowScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 10}, {20, 5}} {
		b, s := newTest(t, size[0], size[1], Config{Version: "test"})
		press(b, "cm")
		b.draw()
		lines := text(s)
		if !strings.Contains(lines[len(lines)-1], "Total") {
			t.Errorf("%v: footer %q", size, lines[len(lines)-1])
		}
		if size[0] >= 80 && !strings.Contains(strings.Join(lines, "\n"), "/many") {
			t.Errorf("%v: no name shown:\n%s", size, strings.Join(lines, "\n"))
		}
		press(b, "?")
		b.draw()
		press(b, "?")
		press(b, "i")
		b.draw()
	}
}

func TestEnterUpAndTop(t *testing.T) {
	b, s := newTest(t, 100, 30, Config{})
	press(b, "n") // .dot big empty excl link many
	press(b, "G")
	b.key(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
	b.draw()
	if got := text(s)[1]; !strings.HasPrefix(got, "--- /r/many ") {
		t.Errorf("path line %q", got)
	}
	if order(b) != "a b c" {
		t.Errorf("in many: %s", order(b))
	}
	press(b, "T")
	if len(b.stack) != 1 || b.selected().Name != "many" {
		t.Errorf("T: at %d levels, on %s", len(b.stack), b.selected().Name)
	}
	press(b, "l")
	b.key(tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone))
	if b.selected().Name != "many" {
		t.Errorf("left: on %s, want many", b.selected().Name)
	}
}

func TestReadOnlyRefuses(t *testing.T) {
	for _, cfg := range []Config{{ReadOnly: true}, {Imported: "saved.json"}} {
		b, _ := newTest(t, 100, 30, cfg)
		items := b.cfg.Tree.Top.Items
		press(b, "dy")
		if b.modal != noModal || b.cfg.Tree.Top.Items != items {
			t.Errorf("%+v: deleted", cfg)
		}
		press(b, "d")
		if !strings.Contains(string(b.message), "are off") {
			t.Errorf("%+v: message %q", cfg, b.message)
		}
	}
}

func TestProgressScreen(t *testing.T) {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(80, 24)
	p := &dutree.Progress{}
	p.Entries.Store(12345)
	p.Bytes.Store(3 << 20)
	cur := "/some/dir/being/read"
	p.Current.Store(&cur)
	drawProgress(&browser{s: s, styles: newStyles(false)}, "/some", p, 1500*time.Millisecond, "stop")
	all := strings.Join(text(s), "\n")
	for _, want := range []string{"Items:     12345", "Size:      3.0 MiB", "Current:   /some/dir/being/read", "Elapsed:   1.5 s", "Press q"} {
		if !strings.Contains(all, want) {
			t.Errorf("progress lacks %q:\n%s", want, all)
		}
	}
}

func TestHuman(t *testing.T) {
	for _, c := range []struct {
		n    int64
		si   bool
		want string
	}{
		{0, false, "0 B"}, {1023, false, "1023 B"}, {1024, false, "1.0 KiB"}, {1536, false, "1.5 KiB"},
		{1048524, false, "1.0 MiB"}, {5 << 30, false, "5.0 GiB"}, {999, true, "999 B"}, {1000, true, "1.0 kB"},
	} {
		if got := Human(c.n, c.si); got != c.want {
			t.Errorf("Human(%d, %v) = %q, want %q", c.n, c.si, got, c.want)
		}
	}
}

func TestSanitizeAndFit(t *testing.T) {
	if got := esc("a\x01b\xffc\td"); got != `a\x01b\xffc\td` {
		t.Errorf("esc: %q", got)
	}
	if got := fit("日本語のファイル", 9); got != "日本語の~" {
		t.Errorf("fit wide: %q", got)
	}
	if got := fitMiddle("/a/very/long/path/to/somewhere", 15); got != "/a/ver...ewhere" {
		t.Errorf("fitMiddle: %q", got)
	}
}

func TestInfoListsLinks(t *testing.T) {
	tr := dutree.NewTree(dutree.Node{Name: "/r", Dir: dutree.NewDir(7, []dutree.Node{
		{Name: "a", Ino: 5, Nlink: 2, Dsize: 4096, Flags: dutree.HardLink},
		{Name: "d", Dir: dutree.NewDir(7, []dutree.Node{{Name: "b", Ino: 5, Nlink: 2, Dsize: 4096, Flags: dutree.HardLink}}...)},
		{Name: "other", Ino: 6, Nlink: 2, Flags: dutree.HardLink},
	}...)})
	tr.Recount()
	b, s := newTest(t, 100, 30, Config{Tree: tr})
	press(b, "n") // a d other
	press(b, "i")
	b.draw()
	all := strings.Join(text(s), "\n")
	for _, want := range []string{"Hard link:   counted here", "/r/a", "/r/d/b"} {
		if !strings.Contains(all, want) {
			t.Errorf("details lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "/r/other") {
		t.Errorf("another inode listed:\n%s", all)
	}
	if tr.Top.Dsize != 4096 {
		t.Errorf("two links counted as %d bytes", tr.Top.Dsize)
	}
}

// TestRescanPathAsScanned: a rescan walks the directory by the path the
// scan gave it, which --exclude's patterns (./skip) were matched against.
func TestRescanPathAsScanned(t *testing.T) {
	tr := testTree()
	tr.Given = "."
	var got string
	b, _ := newTest(t, 100, 30, Config{Tree: tr, Rescan: func(_ context.Context, path string, _ *dutree.Node, _ *dutree.Progress) ([]dutree.Error, error) {
		got = path
		return nil, nil
	}})
	press(b, "n")
	press(b, "G")
	b.enter()
	press(b, "r")
	if got != "./many" {
		t.Errorf("rescanned %q, want ./many", got)
	}
}

// TestHugeSizesDraw: sizes near int64's end draw (the bar's arithmetic
// overflowed once).
func TestHugeSizesDraw(t *testing.T) {
	tr := dutree.NewTree(dutree.Node{Name: "/r", Dir: dutree.NewDir(0, []dutree.Node{
		{Name: "huge", Asize: 1 << 62, Dsize: 1 << 62}, {Name: "small", Asize: 1, Dsize: 1},
	}...)})
	tr.Recount()
	b, s := newTest(t, 100, 30, Config{Tree: tr})
	press(b, "a")
	b.draw()
	if all := strings.Join(text(s), "\n"); !strings.Contains(all, "[##########]") {
		t.Errorf("no full bar:\n%s", all)
	}
}

func TestMouse(t *testing.T) {
	b, _ := newTest(t, 100, 30, Config{Mouse: true})
	press(b, "n") // .dot big empty excl link many
	click := func(y int) { b.mouse(tcell.NewEventMouse(5, y, tcell.Button1, tcell.ModNone)) }
	click(2 + 5)
	if n := b.selected(); n == nil || n.Name != "many" {
		t.Fatalf("a click on the sixth line selected %v", n)
	}
	click(2 + 5)
	if len(b.stack) != 2 {
		t.Errorf("a double click did not open many")
	}
	b.mouse(tcell.NewEventMouse(5, 5, tcell.WheelDown, tcell.ModNone))
	if b.sel != 2 {
		t.Errorf("the wheel moved to %d, want 2 (the last of a, b, c)", b.sel)
	}
}

// TestEmptyAsksAboutOtherLinks: z on a file with other links says that
// they, wherever they are (another user may have made one where
// fs.protected_hardlinks is off), are emptied with it.
func TestEmptyAsksAboutOtherLinks(t *testing.T) {
	tr := dutree.NewTree(dutree.Node{Name: "/r", Dir: dutree.NewDir(0,
		dutree.Node{Name: "one", Asize: 10, Dsize: 10, Nlink: 1, Ino: 5},
		dutree.Node{Name: "linked", Asize: 20, Dsize: 20, Nlink: 3, Ino: 6, Flags: dutree.HardLink},
	)})
	tr.Recount()
	b, _ := newTest(t, 100, 30, Config{Tree: tr})
	ask := func(name string) string {
		for i, k := range b.view {
			if b.kids[k].Name == name {
				b.sel = i
			}
		}
		b.ask = nil
		press(b, "z")
		if b.ask == nil {
			t.Fatalf("z on %s asked nothing", name)
		}
		var lines []string
		for _, l := range b.ask.lines {
			lines = append(lines, string(l))
		}
		return strings.Join(lines, "\n")
	}
	if q := ask("linked"); !strings.Contains(q, "2 other links") {
		t.Errorf("z on a file with 3 links asks:\n%s", q)
	}
	if q := ask("one"); strings.Contains(q, "other link") {
		t.Errorf("z on a file with one link asks:\n%s", q)
	}
}
