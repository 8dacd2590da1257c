package browse

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// styles are the browser's looks; without colour, attributes only.
type styles struct {
	plain, bar, dir, sel, frame, mark, box tcell.Style
}

func newStyles(color bool) styles {
	p := tcell.StyleDefault
	if !color {
		return styles{plain: p, bar: p, dir: p.Bold(true), sel: p.Reverse(true), frame: p.Reverse(true), mark: p.Bold(true), box: p}
	}
	return styles{
		plain: p,
		bar:   p.Foreground(tcell.ColorGreen),
		dir:   p.Foreground(tcell.ColorBlue).Bold(true),
		sel:   p.Background(tcell.ColorTeal).Foreground(tcell.ColorWhite),
		frame: p.Background(tcell.ColorTeal).Foreground(tcell.ColorWhite),
		mark:  p.Foreground(tcell.ColorRed).Bold(true),
		box:   p,
	}
}

// rows is how many entries the list shows.
func (b *browser) rows() int {
	_, h := b.s.Size()
	return max(h-3, 1)
}

// put is the one function that draws: s at x, y; it returns the column
// after it. s is escaped already (esc, textf); put checks it again with
// the same escape, backslashes aside, which leaves escaped text as it is
// and escapes any control a wrongly built shown holds, so nothing drawn
// acts on the terminal.
func (b *browser) put(x, y int, s shown, st tcell.Style) int {
	t := escape(string(s), false)
	b.s.PutStrStyled(x, y, t, st)
	return x + uniseg.StringWidth(t)
}

func (b *browser) draw() {
	b.s.Clear()
	w, h := b.s.Size()
	b.header(w)
	b.list(w)
	b.footer(w, h)
	switch b.modal {
	case helpModal:
		b.box(w, h, "fdu help", helpLines())
	case infoModal:
		b.box(w, h, "Item info", b.infoLines())
	case confirmModal:
		b.box(w, h, "Confirm delete", b.confirmLines())
	case exportModal:
		b.box(w, h, "Export", b.exportLines())
	}
	b.drawModal(w, h)
	b.s.Show()
}

func (b *browser) header(w int) {
	title := textf("fdu %s ~ Use the arrow keys to navigate, press ? for help", b.cfg.Version)
	if b.cfg.Imported != "" {
		title += " [imported]"
	} else if b.cfg.ReadOnly {
		title += " [read-only]"
	}
	if b.cfg.Tree.Incomplete {
		title += " [scan stopped: incomplete]"
	}
	b.put(0, 0, fit(title, w), b.styles.frame)
	path := "--- " + fitMiddle(esc(b.path("")), max(w-6, 1)) + " "
	b.put(0, 1, path+repeat("-", w-uniseg.StringWidth(string(path))), b.styles.plain)
}

func (b *browser) footer(w, h int) {
	d := b.dir().Dir
	line := textf(" Total disk usage: %s  Apparent size: %s  Items: %d", b.cfg.Format(d.Dsize), b.cfg.Format(d.Asize), d.Items)
	if t, ok := b.ageSums[d]; ok {
		line = textf(" Shown: disk usage %s  apparent %s  items %d  (age: %s; %d hidden)", b.cfg.Format(t.dsize), b.cfg.Format(t.asize),
			t.items, esc(b.age.String()), t.hidden)
	}
	if b.search != "" {
		line = textf(" Search: %s (%d shown) |", esc(b.search), len(b.view)) + line
	}
	if b.marks.count > 0 {
		line = textf(" Marked: %d, %s (%s) |", b.marks.count, b.cfg.Format(b.markSize()), b.sizeWord()) + line
	}
	if b.message != "" {
		line = " " + b.message
	}
	b.put(0, h-1, fit(line, w), b.styles.frame)
}

// list draws the entries, the cursor's row kept in sight.
func (b *browser) list(w int) {
	rows := b.rows()
	if b.sel < b.top {
		b.top = b.sel
	}
	if b.sel >= b.top+rows {
		b.top = b.sel - rows + 1
	}
	b.top = max(min(b.top, len(b.view)-rows), 0)
	if len(b.view) == 0 {
		b.put(1, 2, "(empty directory)", b.styles.plain)
		return
	}
	kids := b.kids
	var largest int64
	for _, i := range b.view {
		largest = max(largest, b.sizeOf(&kids[i], b.apparent))
	}
	for row := 0; row < rows && b.top+row < len(b.view); row++ {
		n := &kids[b.view[b.top+row]]
		b.line(2+row, w, n, largest, b.top+row == b.sel)
	}
}

// line draws one entry: its mark, size, graph, count, time and name.
func (b *browser) line(y, w int, n *dutree.Node, largest int64, selected bool) {
	st := b.styles
	if selected {
		st = styles{plain: st.sel, bar: st.sel, dir: st.sel.Bold(true), mark: st.sel.Bold(true)}
		b.put(0, y, repeat(" ", w), st.plain)
	}
	size := b.sizeOf(n, b.apparent)
	x := b.put(0, y, textf("%c", mark(n)), st.mark)
	if b.marked(n.Name) {
		x = b.put(x, y, "*", st.mark) // in the space before the size: the columns stay
	} else {
		x = b.put(x, y, " ", st.plain)
	}
	x = b.put(x, y, textf("%10s ", b.cfg.Format(size)), st.plain)
	x = b.graphColumn(x, y, size, largest, st)
	if b.count {
		x = b.put(x, y, textf("%8s ", countText(n)), st.plain)
	}
	if b.mtime {
		x = b.put(x, y, textf("%s ", timeText(n.Newest())), st.plain)
	}
	if b.owner {
		x = b.put(x, y, b.ownerText(n), st.plain)
	}
	name := esc(n.Name)
	style := st.plain
	if n.Dir != nil {
		name, style = "/"+name, st.dir
	}
	b.put(x, y, fit(name, w-x), style)
}

func (b *browser) graphColumn(x, y int, size, largest int64, st styles) int {
	total := b.sizeOf(b.dir(), b.apparent)
	if b.graph == graphBoth || b.graph == graphPercent {
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(size) / float64(total)
		}
		x = b.put(x, y, textf("%5.1f%% ", pct), st.plain)
	}
	if b.graph == graphBoth || b.graph == graphBar {
		const width = 10
		filled := 0
		if largest > 0 {
			filled = min(max(int(float64(size)/float64(largest)*width+0.5), 0), width)
		}
		x = b.put(x, y, "[", st.plain)
		x = b.put(x, y, repeat("#", filled), st.bar)
		x = b.put(x, y, repeat(" ", width-filled)+"] ", st.plain)
	}
	return x
}

// mark is ncdu's character for what is odd about n, ' ' for nothing.
func mark(n *dutree.Node) rune {
	switch f := n.Flags; {
	case f&dutree.ReadError != 0:
		return '!'
	case f&dutree.ErrorBelow != 0:
		return '.'
	case f&dutree.Excluded != 0:
		return '<'
	case f&(dutree.OtherFS|dutree.KernFS) != 0:
		return '>'
	case f&(dutree.Symlink|dutree.NotReg) != 0:
		return '@'
	case f&dutree.HardLink != 0:
		return 'H'
	case f&dutree.Unfinished != 0:
		return '?'
	case n.Dir != nil && n.Dir.Empty():
		return 'e'
	}
	return ' '
}

func countText(n *dutree.Node) string {
	if n.Dir == nil {
		return ""
	}
	c := n.Dir.Items
	switch {
	case c < 100000:
		return fmt.Sprint(c)
	case c < 100000000:
		return fmt.Sprintf("%dk", c/1000)
	}
	return fmt.Sprintf("%dM", c/1000000)
}

func timeText(sec int64) string {
	if sec == 0 {
		return strings.Repeat(" ", 16)
	}
	return time.Unix(sec, 0).Format("2006-01-02 15:04")
}

// box draws lines in a frame in the middle of the screen.
func (b *browser) box(w, h int, title shown, lines []shown) {
	bw := 0
	for _, l := range lines {
		bw = max(bw, uniseg.StringWidth(string(l)))
	}
	bw = min(max(bw+4, uniseg.StringWidth(string(title))+7), w)
	bh := min(len(lines)+2, h)
	x0, y0 := (w-bw)/2, (h-bh)/2
	st := b.styles.frame
	top := "+-- " + title + " "
	b.put(x0, y0, top+repeat("-", bw-1-uniseg.StringWidth(string(top)))+"+", st)
	for i := 0; i < bh-2; i++ {
		b.put(x0, y0+1+i, "|", st)
		b.put(x0+1, y0+1+i, fit(" "+lines[i], bw-2), b.styles.box)
		b.put(x0+bw-1, y0+1+i, "|", st)
	}
	b.put(x0, y0+bh-1, "+"+repeat("-", bw-2)+"+", st)
}

func helpLines() []shown {
	return []shown{
		"up, k / down, j    move the cursor (PgUp, PgDn, Home g, End G)",
		"right, l, enter    open the selected directory; T: go to the top",
		"left, h, <         go up to the parent directory",
		"s / n / C / M      sort by size / name / items / mtime (again: reverse)",
		"t / a              directories before files / apparent size or disk usage",
		"c / m / g          item counts / mtimes / graph and percentage",
		"e / i / o          hidden and excluded files / details / owner (-e)",
		"d                  delete the selected entry, or the marked (asks first)",
		"space / A          mark or unmark the entry / all entries shown here",
		"D, ctrl-t          move the entry, or the marked, to the trash (asks)",
		"z                  empty the selected file to 0 bytes (asks first)",
		"F / /              age filter (max-age=7d...) / search names here",
		"r / b              scan this directory again / a shell in it",
		"E / V              export to an ncdu JSON file / the mounted disks",
		"q, ctrl-c / Q      quit / quit printing this directory's path",
		"",
		"!  an error reading this directory   .  an error below it",
		"<  excluded (pattern, cache tag)      >  another or a kernel file system",
		"@  a link or not a regular file       H  a hard link (counted once)",
		"e  an empty directory                 ?  not read: the scan was stopped",
		"*  marked                             ? or esc closes this help",
	}
}

func (b *browser) infoLines() []shown {
	n := b.selected()
	kind := "file"
	switch {
	case n.Dir != nil:
		kind = "directory"
	case n.Flags&dutree.Symlink != 0:
		kind = "symbolic link"
	case n.Flags&dutree.NotReg != 0:
		kind = "not a regular file"
	}
	lines := []shown{
		"Name:        " + esc(n.Name),
		"Path:        " + esc(b.path(n.Name)),
		textf("Type:        %s", kind),
		textf("Disk usage:  %s (%d bytes, %d blocks of 512)", b.cfg.Format(n.Size(false)), n.Size(false), n.Size(false)/512),
		textf("Apparent:    %s (%d bytes)", b.cfg.Format(n.Size(true)), n.Size(true)),
	}
	if n.Dir != nil {
		lines = append(lines, textf("Items:       %d", n.Dir.Items), textf("Device:      %d", n.Dir.Dev))
	}
	lines = append(lines, textf("Inode:       %d", n.Ino), textf("Links:       %d", n.Nlink))
	if n.Mtime != 0 {
		lines = append(lines, textf("Modified:    %s", time.Unix(n.Mtime, 0).Format("2006-01-02 15:04:05 -0700")))
	}
	lines = append(lines, b.extLines(n)...)
	if n.Flags&dutree.HardLink != 0 {
		lines = append(lines, b.linkLines(n)...)
	}
	if n.Flags&(dutree.ReadError|dutree.ErrorBelow) != 0 {
		lines = append(lines, "Errors:      could not be read in full (see the ! and . marks)")
	}
	if n.Flags&dutree.Unfinished != 0 {
		lines = append(lines, "Not read:    the scan was stopped before it listed this directory")
	}
	return lines
}

// linkLines lists the other links to n the tree holds, as ncdu's details
// do, and says which of them is counted.
func (b *browser) linkLines(n *dutree.Node) []shown {
	var counted shown = "counted here"
	if n.Flags&dutree.LinkSeen != 0 {
		counted = "counted at another of its links"
	}
	lines := []shown{"Hard link:   " + counted}
	const most = 6
	links := b.cfg.Tree.Links(b.dir().Dir.Dev, n.Ino, most+1)
	for i, l := range links {
		if i == most {
			lines = append(lines, "             ...")
			break
		}
		lines = append(lines, "             "+esc(join(b.cfg.Tree.Path, []string{l})))
	}
	return lines
}

// confirmLines is the confirmation's text (lines built by esc and textf,
// like every line drawn).
func (b *browser) confirmLines() []shown {
	n := b.selected()
	// The path in full, over as many lines as the screen has (but for
	// the box's frame and the keys' line), wrapped to its width (but for
	// the frame and a space); on a screen too small, its start and end.
	// The keys come next, so a small screen's box still shows them.
	w, h := b.s.Size()
	lines := append(question(esc(b.path(n.Name)), w-3, h-3), "y: delete        any other key: keep it")
	if n.Dir != nil {
		lines = append(lines, textf("The directory and all it holds: %d items, %s.", n.Dir.Items, b.cfg.Format(n.Size(false))))
		// Excluded files are deleted with it, unseen but for this;
		// an excluded directory, never read, makes the deletion refused.
		switch files, dirs := n.ExcludedBelow(); {
		case dirs > 0:
			lines = append(lines, textf("It holds %s excluded from the scan (--exclude), never read: it cannot be deleted.", plural(dirs, "directory", "directories")))
		case files == 1:
			lines = append(lines, "It holds 1 entry excluded from the scan (--exclude); it is deleted too.")
		case files > 1:
			lines = append(lines, textf("It holds %s excluded from the scan (--exclude); they are deleted too.", plural(files, "entry", "entries")))
		}
	}
	return lines
}
