package browse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/age"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// Config is what the command line asks of the browser.
type Config struct {
	Tree     *dutree.Tree
	Version  string
	Apparent bool               // show apparent sizes at first (--apparent-size, -b)
	Format   func(int64) string // a size as the column shows it
	ReadOnly bool               // --read-only: no deletion, rescan or shell
	Imported string             // the file read by -f, "" for a scan: then also read-only
	Color    bool               // false under NO_COLOR and --no-color
	Mtime    bool               // show the mtime column at first (--time)
	// Rescan scans the directory n again (path as the scan gave it),
	// counting into p, until ctx ends.
	Rescan func(ctx context.Context, path string, n *dutree.Node, p *dutree.Progress) ([]dutree.Error, error)
	Shell  func(dir string) error // runs a shell in dir; nil: $SHELL
	Mouse  bool                   // wheel and clicks, as gdu takes them (--no-mouse: off)
	// Age hides the files its bounds leave out at first (--max-age,
	// --min-age, --since, --until); nil: none.
	Age         *age.Filter
	ConfirmQuit bool    // ask before quitting (--confirm-quit)
	QuitPath    *string // set by Q to the directory shown, for the caller to print
	// Export writes the tree to the file name in ncdu's format (E); nil:
	// not offered.
	Export func(name string) error
	// Disks offers the list of disks (V): Run returns ErrDisks for it.
	Disks bool
}

// sortKey is what the list is ordered by.
type sortKey int

const (
	bySize sortKey = iota
	byName
	byCount
	byMtime
)

// graphMode is what the graph column shows: ncdu's g cycles through them.
type graphMode int

const (
	graphBoth graphMode = iota
	graphPercent
	graphBar
	graphNone
)

// browser is the browser's state between keys.
type browser struct {
	cfg    Config
	s      tcell.Screen
	styles styles

	stack    []dutree.Node // the root, down to the directory shown
	kids     []dutree.Node // its entries, read again at each refresh
	view     []int         // the shown entries of kids, in order
	sel, top int           // the selected row, the first row shown

	sort      sortKey
	desc      bool
	dirsFirst bool
	apparent  bool
	hidden    bool // hidden files shown (ncdu's e)
	count     bool // the item-count column
	mtime     bool
	graph     graphMode
	owner     bool    // the owner column (extended mode's o)
	ids       idNames // owner and group names, looked up once each
	input     string  // the file name being typed at the export's prompt
	disks     bool    // the list of disks was asked for

	modal   modal
	message shown // an error or a note, shown until a key (esc, textf)
	quit    bool

	marks   marks
	age     *age.Filter               // files shown by their mtime; nil: all
	ageSums map[*dutree.Dir]ageTotals // each directory's totals under age
	search  string                    // names shown hold it (/)
	ask     *query                    // a yes-or-no box shown
	window  *window                   // a box of text shown
	prompt  *prompt                   // a line being typed

	interrupted *Interrupted // a signal stopped a deletion: Run returns it

	lastClick     time.Time // for a double click
	lastClickLine int
}

// Run shows cfg.Tree on s until the user quits.
func Run(s tcell.Screen, cfg Config) error {
	b := newBrowser(s, cfg)
	for !b.quit {
		b.draw()
		switch ev := s.PollEvent().(type) {
		case *tcell.EventResize:
			s.Sync()
		case *tcell.EventKey:
			b.key(ev)
		case *tcell.EventMouse:
			b.mouse(ev)
		case nil:
			return errors.New("the terminal went away")
		}
	}
	if b.interrupted != nil {
		return b.interrupted
	}
	if b.disks {
		return ErrDisks
	}
	return nil
}

func newBrowser(s tcell.Screen, cfg Config) *browser {
	if cfg.Format == nil {
		cfg.Format = func(n int64) string { return Human(n, false) }
	}
	b := &browser{cfg: cfg, s: s, styles: newStyles(cfg.Color), stack: []dutree.Node{cfg.Tree.Root()},
		desc: true, apparent: cfg.Apparent, hidden: true, mtime: cfg.Mtime, age: cfg.Age}
	b.countAge()
	b.refresh("")
	if cfg.Mouse {
		s.EnableMouse(tcell.MouseButtonEvents)
	}
	return b
}

// dir is the directory shown.
func (b *browser) dir() *dutree.Node { return &b.stack[len(b.stack)-1] }

// path is the path of the directory shown, or of name in it.
func (b *browser) path(name string) string {
	names := b.names()
	if name != "" {
		names = append(names, name)
	}
	return join(b.stack[0].Name, names)
}

// join is base and the names below it, with one "/" between each (the
// root directory "/" ends in one already).
func join(base string, names []string) string {
	p := base
	for _, name := range names {
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		p += name
	}
	return p
}

// selected is the entry under the cursor, or nil in an empty directory
// (or while the view is older than the entries, between a change and its
// refresh).
func (b *browser) selected() *dutree.Node {
	if b.sel < 0 || b.sel >= len(b.view) || b.view[b.sel] >= len(b.kids) {
		return nil
	}
	return &b.kids[b.view[b.sel]]
}

// names is the names below the root of the directory shown.
func (b *browser) names() []string {
	var out []string
	for _, n := range b.stack[1:] {
		out = append(out, n.Name)
	}
	return out
}

// refresh orders and filters the directory's entries again, keeping the
// cursor on the entry named keep (or where it was).
func (b *browser) refresh(keep string) {
	if keep == "" {
		if n := b.selected(); n != nil {
			keep = n.Name
		}
	}
	b.kids = b.dir().Dir.Entries()
	kids := b.kids
	b.view = b.view[:0]
	for i := range kids {
		if (b.hidden || !strings.HasPrefix(kids[i].Name, ".") && kids[i].Flags&dutree.Excluded == 0) &&
			b.shownByAge(&kids[i]) && b.matchesSearch(kids[i].Name) {
			b.view = append(b.view, i)
		}
	}
	slices.SortStableFunc(b.view, func(i, j int) int { return b.compare(&kids[i], &kids[j]) })
	b.sel = min(b.sel, len(b.view)-1)
	for row, i := range b.view {
		if kids[i].Name == keep {
			b.sel = row
		}
	}
	b.sel = max(b.sel, 0)
}

func (b *browser) compare(x, y *dutree.Node) int {
	if b.dirsFirst && x.IsDir() != y.IsDir() {
		if x.IsDir() {
			return -1
		}
		return 1
	}
	c := 0
	switch b.sort {
	case bySize:
		c = cmpInt(b.sizeOf(x, b.apparent), b.sizeOf(y, b.apparent))
	case byCount:
		c = cmpInt(x.Items(), y.Items())
	case byMtime:
		c = cmpInt(x.Newest(), y.Newest())
	}
	if b.desc {
		c = -c
	}
	if c == 0 {
		c = strings.Compare(x.Name, y.Name)
		if b.sort == byName && b.desc {
			c = -c
		}
	}
	return c
}

// sizeOf is n's size as shown: under an age filter, a directory's total
// over the files shown.
func (b *browser) sizeOf(n *dutree.Node, apparent bool) int64 {
	if t, ok := b.ageSums[n.Dir]; ok && n.Dir != nil {
		if apparent {
			return t.asize
		}
		return t.dsize
	}
	return n.Size(apparent)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// readOnly says why deleting, rescanning and the shell are off, or "".
func (b *browser) readOnly() shown {
	switch {
	case b.cfg.Imported != "":
		return "read from " + esc(b.cfg.Imported) + ", not scanned: deletion, rescans and the shell are off"
	case b.cfg.ReadOnly:
		return "read-only mode (--read-only): deletion, rescans and the shell are off"
	}
	return ""
}

// enter opens the selected directory.
func (b *browser) enter() {
	n := b.selected()
	if n == nil || n.Dir == nil {
		return
	}
	b.stack = append(b.stack, *n)
	b.sel, b.top, b.view, b.search = 0, 0, nil, ""
	b.refresh("")
}

// up goes to the parent directory, the cursor on the one left.
func (b *browser) up() {
	if len(b.stack) == 1 {
		return
	}
	left := b.dir().Name
	b.stack = b.stack[:len(b.stack)-1]
	b.sel, b.top, b.view, b.search = 0, 0, nil, ""
	b.refresh(left)
}

// toTop goes to the root of the tree.
func (b *browser) toTop() {
	if len(b.stack) == 1 {
		return
	}
	keep := b.stack[1].Name
	b.stack = b.stack[:1]
	b.sel, b.top, b.view, b.search = 0, 0, nil, ""
	b.refresh(keep)
}

// deleteSelected deletes the entry under the cursor, confirmed. A signal
// during the deletion stops it and ends the browser (StopDeletion).
func (b *browser) deleteSelected() {
	n := b.selected()
	if n == nil {
		return
	}
	name, next := n.Name, ""
	if b.sel+1 < len(b.view) {
		next = b.kids[b.view[b.sel+1]].Name
	} else if b.sel > 0 {
		next = b.kids[b.view[b.sel-1]].Name
	}
	path := b.path(name)
	sig, err := deleteStoppable(b.cfg.Tree, b.names(), name)
	if sig != nil {
		b.interrupted = &Interrupted{Signal: sig, Path: path, Err: err, format: b.cfg.Format}
		b.quit = true
		return
	}
	b.afterChange()
	var stopped *dutree.StoppedError
	switch {
	case err == nil:
		b.refresh(next)
	case errors.Is(err, dutree.ErrGone):
		b.message = textf("%s: %v", name, err)
		b.refresh(next)
	case errors.As(err, &stopped) && stopped.Files+stopped.Dirs > 0:
		// Part of it went: the tree lost that part; a rescan adds what
		// else changed, which stopped it.
		msg := textf("Stopped deleting %s after %s: %v", name, deletedText(stopped, b.cfg.Format, false), stopped.Err)
		if !b.rescan() {
			msg += "; the view lacks what changed since the scan until a rescan (r)"
		}
		b.message = msg
		b.refresh(name)
	case stopped != nil:
		b.message = textf("Cannot delete %s: %v", name, stopped.Err) // stopped before it deleted anything
		b.refresh(name)
	default:
		b.message = textf("Cannot delete %s: %v", name, err) // refused: nothing deleted
		b.refresh(name)
	}
}

// rescan scans the directory shown again, its progress on the screen; q
// stops it and leaves the tree as it was. It reports whether the tree now
// holds the new scan.
func (b *browser) rescan() bool { return b.rescanAt(b.names()) }

// rescanAt is rescan of the directory at names below the root.
func (b *browser) rescanAt(names []string) bool {
	if b.cfg.Rescan == nil {
		return false
	}
	n := b.cfg.Tree.Find(names)
	if n == nil || n.Dir == nil {
		return false
	}
	keep := ""
	if n := b.selected(); n != nil {
		keep = n.Name
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &dutree.Progress{}
	done := make(chan struct{})
	var errs []dutree.Error
	var err error
	go func() {
		defer close(done)
		errs, err = b.cfg.Rescan(ctx, join(b.cfg.Tree.Given, names), n, p)
	}()
	if ScanProgress(b.s, join(b.stack[0].Name, names), p, done, b.cfg.Color, "the tree stays as it was") {
		cancel()
		<-done
		b.message = "Rescan stopped: nothing changed"
		return false
	}
	switch {
	case err != nil:
		b.message = textf("Rescan failed: %v", err)
		return false
	case len(errs) > 0:
		b.message = textf("Rescanned, with %d errors: the first, %s: %v", len(errs), errs[0].Path, errs[0].Err)
	default:
		b.message = ""
	}
	b.cfg.Tree.Recount()
	b.afterChange()
	b.view = nil
	b.refresh(keep)
	return true
}

// shell runs a shell in the directory shown, the screen suspended.
func (b *browser) shell() {
	run := b.cfg.Shell
	if run == nil {
		run = defaultShell
	}
	back, err := b.cfg.Tree.Enter(b.names(), b.path(""))
	if err != nil {
		b.message = textf("No shell: %v", err)
		return
	}
	if err := b.s.Suspend(); err != nil {
		back()
		b.message = textf("Cannot suspend the screen: %v", err)
		return
	}
	err = run(b.path(""))
	if berr := back(); berr != nil && err == nil {
		err = berr
	}
	if rerr := b.s.Resume(); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		b.message = textf("Shell: %v", err)
	} else {
		b.message = "Back from the shell: press r to scan this directory again"
	}
}

// shellRunning is set while a shell runs in the terminal: its ctrl-c and
// ctrl-\ reach fdu too (one process group), and must not end it.
var shellRunning atomic.Bool

// ShellRunning reports whether a shell started by the browser is running.
func ShellRunning() bool { return shellRunning.Load() }

func defaultShell(dir string) error {
	shellRunning.Store(true)
	defer shellRunning.Store(false)
	sh := os.Getenv("SHELL")
	if sh == "" {
		sh = "/bin/sh"
	}
	fmt.Fprintf(os.Stdout, "fdu: a shell in %s; exit it to return to the browser\n", Escape(dir))
	// The shell starts in fdu's working directory, which shell has made
	// the directory shown through its descriptor: dir only names it.
	cmd := exec.CommandContext(context.Background(), sh)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	level, _ := strconv.Atoi(os.Getenv("FDU_LEVEL"))
	cmd.Env = append(os.Environ(), "FDU_LEVEL="+strconv.Itoa(level+1)) // as ncdu's NCDU_LEVEL
	return cmd.Run()
}
