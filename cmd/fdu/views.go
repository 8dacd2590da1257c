package main

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// The views beyond du: a tree of the largest entries (as dust and gdu show
// it), JSON for scripts, and the largest files. They read the same scanned
// tree as the du report, with the same hard-link rule.

// vnode is one entry of a view: its total and, for a directory, its
// children.
type vnode struct {
	Name string `json:"name"`
	// NameBytes is what printJSON writes beside a Name that is not UTF-8,
	// from Name itself; the field is here for readers of the output.
	NameBytes []byte   `json:"name_bytes,omitempty"`
	Size      uint64   `json:"size"`
	Inodes    uint64   `json:"inodes"`
	Dir       bool     `json:"dir,omitempty"`
	Error     bool     `json:"error,omitempty"`
	Children  []*vnode `json:"children,omitempty"`
}

// viewBuilder turns dnodes into vnodes, counting each hard-linked file
// once, the first time in du's order.
type viewBuilder struct {
	cfg   *config
	seen  func(dev, ino uint64) bool // reports whether (dev, ino) was counted before
	files []fileSize                 // every counted file, for --largest
}

type fileSize struct {
	path string
	size uint64
}

func (b *viewBuilder) dir(n *dnode, name, path string) *vnode {
	if n.state == pending {
		return nil
	}
	if b.cfg.hashAll && !b.cfg.countLinks && b.seen(n.dev, n.ino) {
		return nil
	}
	n = n.walked()
	v := &vnode{Name: name, Dir: true, Error: n.state == unreadable || len(n.errs) > 0}
	v.Size, v.Inodes = n.own.size+n.sum.size, n.own.inodes+n.sum.inodes
	prefix := strings.TrimSuffix(path, "/")
	for it := range n.items.all() {
		name := n.name(it)
		if it.dir != nil {
			if c := b.dir(it.dir, strings.Clone(name), prefix+"/"+name); c != nil {
				v.Size += c.Size
				v.Inodes += c.Inodes
				v.Children = append(v.Children, c)
			}
			continue
		}
		if dev, ino, hash := n.linkID(it); hash && !b.cfg.countLinks && b.seen(dev, ino) {
			continue
		}
		v.Size += it.size
		v.Inodes++
		if name != "" {
			v.Children = append(v.Children, &vnode{Name: strings.Clone(name), Size: it.size, Inodes: 1})
			b.files = append(b.files, fileSize{prefix + "/" + name, it.size})
		}
	}
	return v
}

// value is what a view sorts and shows: bytes, or inodes under --inodes.
func (c *config) value(v *vnode) uint64 {
	if c.inodes {
		return v.Inodes
	}
	return v.Size
}

// treeView prints roots as a tree, largest first, depth and topN per level
// bounded, with bars and percentages, fitting width columns.
type treeView struct {
	cfg    *config
	out    io.Writer
	depth  int
	topN   int
	width  int
	colour bool
}

func (t *treeView) print(roots []*vnode) {
	for _, r := range roots {
		t.node(r, r, "", "", 0)
	}
}

func (t *treeView) node(root, v *vnode, prefix, branch string, depth int) {
	total := t.cfg.value(root)
	val := t.cfg.value(v)
	pct := 100.0
	if total > 0 {
		pct = float64(val) * 100 / float64(total)
	}
	size := fmt.Sprintf("%6s", t.cfg.unit.format(val))
	const barWidth = 16
	bar := bar(pct, barWidth)
	head := fmt.Sprintf("%s %5.1f%% %s ", size, pct, bar)
	name := v.Name
	if depth > 0 && !t.cfg.null {
		name = quoteName(name)
	}
	room := t.width - utf8.RuneCountInString(head) - utf8.RuneCountInString(prefix+branch)
	name = truncate(name, max(room, 8))
	if t.colour {
		switch {
		case v.Error:
			name = "\x1b[31m" + name + "\x1b[0m"
		case v.Dir:
			name = "\x1b[1;34m" + name + "\x1b[0m"
		}
		head = fmt.Sprintf("%s %5.1f%% \x1b[36m%s\x1b[0m ", size, pct, bar)
	}
	fmt.Fprintf(t.out, "%s%s%s%s\n", head, prefix, branch, name)
	if depth >= t.depth || len(v.Children) == 0 {
		return
	}
	kids := slices.Clone(v.Children)
	slices.SortStableFunc(kids, func(a, b *vnode) int {
		if c := cmp.Compare(t.cfg.value(b), t.cfg.value(a)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	shown := kids
	if t.topN > 0 && len(kids) > t.topN {
		shown = kids[:t.topN]
	}
	childPrefix := prefix
	if depth > 0 {
		if branch == "└── " {
			childPrefix += "    "
		} else {
			childPrefix += "│   "
		}
	}
	for i, k := range shown {
		br := "├── "
		if i == len(shown)-1 && len(shown) == len(kids) {
			br = "└── "
		}
		t.node(root, k, childPrefix, br, depth+1)
	}
	if rest := kids[len(shown):]; len(rest) > 0 {
		var sum uint64
		for _, k := range rest {
			sum += t.cfg.value(k)
		}
		fmt.Fprintf(t.out, "%6s %6s %*s %s└── … %d more\n", t.cfg.unit.format(sum), "", barWidth, "", childPrefix, len(rest))
	}
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

// terminalWidth is stdout's width: the terminal's, or COLUMNS, or 80.
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

// printJSON writes the roots as one JSON array on one line, as
// encoding/json's Encoder (without HTML escaping) would. It is written out
// here rather than with encoding/json, whose reflection is a tenth of the
// binary: every page of the binary is resident while fdu runs, and its
// footprint is one of the things fdu is measured by.
func printJSON(out io.Writer, roots []*vnode) error {
	b := []byte{'['}
	for i, v := range roots {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendVnode(b, v)
		if len(b) > 32<<10 {
			if _, err := out.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, ']', '\n')
	_, err := out.Write(b)
	return err
}

// appendVnode appends v and its children, depth first, the fields in
// vnode's order and the false or empty ones left out.
func appendVnode(b []byte, v *vnode) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, v.Name)
	if !utf8.ValidString(v.Name) {
		// "name" has U+FFFD for each byte that is not UTF-8, so two names
		// may read the same: the exact bytes follow, in base64.
		b = append(b, `,"name_bytes":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(v.Name))
		b = append(b, '"')
	}
	b = append(b, `,"size":`...)
	b = strconv.AppendUint(b, v.Size, 10)
	b = append(b, `,"inodes":`...)
	b = strconv.AppendUint(b, v.Inodes, 10)
	if v.Dir {
		b = append(b, `,"dir":true`...)
	}
	if v.Error {
		b = append(b, `,"error":true`...)
	}
	if len(v.Children) > 0 {
		b = append(b, `,"children":[`...)
		for i, c := range v.Children {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendVnode(b, c)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONString appends s quoted as JSON, as encoding/json does without
// HTML escaping: a byte that is not UTF-8 becomes U+FFFD, control
// characters and U+2028 and U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			default:
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// largest prints the n largest files, largest first.
func largest(cfg *config, out io.Writer, files []fileSize, n int) {
	h := &sizeHeap{}
	for _, f := range files {
		heap.Push(h, f)
		if h.Len() > n {
			heap.Pop(h)
		}
	}
	top := make([]fileSize, h.Len())
	for i := len(top) - 1; i >= 0; i-- {
		top[i] = heap.Pop(h).(fileSize)
	}
	for _, f := range top {
		fmt.Fprintf(out, "%s\t%s\n", cfg.unit.format(f.size), f.path)
	}
}

// sizeHeap is a min-heap of files by size (then path, for a stable order).
type sizeHeap []fileSize

func (h sizeHeap) Len() int { return len(h) }
func (h sizeHeap) Less(i, j int) bool {
	if h[i].size != h[j].size {
		return h[i].size < h[j].size
	}
	return h[i].path > h[j].path
}
func (h sizeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *sizeHeap) Push(x any)   { *h = append(*h, x.(fileSize)) }
func (h *sizeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// views scans every argument and shows the chosen view.
func (s *scanner) views(ctx context.Context, todo []arg, r *reporter, stdout io.Writer, errOut func(string)) {
	b := &viewBuilder{cfg: s.cfg, seen: func(dev, ino uint64) bool { return r.links.Seen(dev, ino) }}
	var roots []*vnode
	for _, a := range todo {
		if s.cfg.exclude.excluded(a.path) {
			continue
		}
		if a.err != nil {
			errOut(s.argError(a))
			continue
		}
		if !a.st.isDir {
			if !s.cfg.countLinks && (s.cfg.hashAll || a.st.nlink > 1) && b.seen(a.st.dev, a.st.ino) {
				continue
			}
			roots = append(roots, &vnode{Name: a.path, Size: a.st.use.size, Inodes: 1})
			b.files = append(b.files, fileSize{a.path, a.st.use.size})
			continue
		}
		tree, _ := s.scanDir(ctx, a.path)
		if tree.state == pending {
			tree.state = unreadable
			tree.own, tree.dev, tree.ino = a.st.use, a.st.dev, a.st.ino
		}
		errs := collectErrs(tree)
		sortErrors(a.path, errs)
		for _, e := range errs {
			errOut(e.msg)
		}
		if v := b.dir(tree, a.path, a.path); v != nil {
			roots = append(roots, v)
		}
	}
	s.progress.finish()
	s.progress = nil
	switch s.cfg.view {
	case "json":
		if err := printJSON(stdout, roots); err != nil {
			errOut(err.Error())
		}
	case "largest":
		largest(s.cfg, stdout, b.files, s.cfg.largest)
	case "tree":
		t := &treeView{cfg: s.cfg, out: stdout, depth: s.cfg.depth, topN: s.cfg.top,
			width: terminalWidth(stdout), colour: isTerminal(stdout) && os.Getenv("NO_COLOR") == ""}
		t.print(roots)
	}
}

// collectErrs gathers the errors a scan recorded, depth first.
func collectErrs(n *dnode) []duError {
	errs := slices.Clone(n.errs)
	for it := range n.items.all() {
		if it.dir != nil {
			errs = append(errs, collectErrs(it.dir)...)
		}
	}
	return errs
}
