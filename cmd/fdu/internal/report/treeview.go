package report

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// barWidth is the columns of a tree view's bar.
const barWidth = 16

// treeView prints entries as a tree, largest first, depth and top per
// level bounded, with bars and percentages, fitting width columns.
type treeView struct {
	v      *Views
	out    io.Writer
	width  int
	colour bool
}

func (t *treeView) print(roots []entry) {
	for _, r := range roots {
		t.node(r, r, "", "", 0)
	}
}

func (t *treeView) node(root, e entry, prefix, branch string, depth int) {
	cfg := t.v.cfg
	total := t.v.value(root)
	val := t.v.value(e)
	pct := 100.0
	if total > 0 {
		pct = float64(val) * 100 / float64(total)
	}
	size := fmt.Sprintf("%6s", cfg.Unit.Format(val))
	bar := bar(pct, barWidth)
	head := fmt.Sprintf("%s %5.1f%% %s ", size, pct, bar)
	name := e.name
	if depth > 0 && !cfg.Null {
		name = quoteName(name)
	}
	room := t.width - utf8.RuneCountInString(head) - utf8.RuneCountInString(prefix+branch)
	name = truncate(name, max(room, 8))
	if t.colour {
		switch {
		case e.failed:
			name = "\x1b[31m" + name + "\x1b[0m"
		case e.dir != nil:
			name = "\x1b[1;34m" + name + "\x1b[0m"
		}
		head = fmt.Sprintf("%s %5.1f%% \x1b[36m%s\x1b[0m ", size, pct, bar)
	}
	fmt.Fprintf(t.out, "%s%s%s%s\n", head, prefix, branch, name)
	if depth >= cfg.Depth {
		return
	}
	if kids := t.v.children(e); len(kids) > 0 {
		t.children(root, kids, childPrefix(prefix, branch, depth), depth)
	}
}

// children prints kids, the entries of a directory at depth, largest
// first, cfg.Top of them at most and a line for the rest.
func (t *treeView) children(root entry, kids []entry, prefix string, depth int) {
	slices.SortStableFunc(kids, func(a, b entry) int {
		if c := cmp.Compare(t.v.value(b), t.v.value(a)); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	shown := kids
	if top := t.v.cfg.Top; top > 0 && len(kids) > top {
		shown = kids[:top]
	}
	for i, k := range shown {
		br := "├── "
		if i == len(shown)-1 && len(shown) == len(kids) {
			br = "└── "
		}
		t.node(root, k, prefix, br, depth+1)
	}
	if rest := kids[len(shown):]; len(rest) > 0 {
		var sum uint64
		for _, k := range rest {
			sum += t.v.value(k)
		}
		fmt.Fprintf(t.out, "%6s %6s %*s %s└── … %d more\n", t.v.cfg.Unit.Format(sum), "", barWidth, "", prefix, len(rest))
	}
}

// childPrefix is what the lines below an entry at depth, drawn with
// prefix and branch, begin with.
func childPrefix(prefix, branch string, depth int) string {
	switch {
	case depth == 0:
		return prefix
	case branch == "└── ":
		return prefix + "    "
	}
	return prefix + "│   "
}

// bar draws pct of width cells with eighth blocks.
func bar(pct float64, width int) string {
	eighths := int(pct/100*float64(width*8) + 0.5)
	eighths = min(max(eighths, 0), width*8)
	s := strings.Repeat("█", eighths/8)
	if r := eighths % 8; r > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[r-1])
	}
	return s + strings.Repeat(" ", width-utf8.RuneCountInString(s))
}

// quoteName shows a name with control bytes or invalid UTF-8 escaped.
func quoteName(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// truncate cuts s to n runes, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// terminalWidth is out's width: the terminal's, or COLUMNS, or 80.
func terminalWidth(out io.Writer) int {
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		return c
	}
	return 80
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
