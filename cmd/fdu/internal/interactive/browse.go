package interactive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
)

// browse scans dir with a progress screen (unless t was read from a
// file), then shows the browser.
func (r *run) browse(t *dutree.Tree, imported, dir string) int {
	s, err := tcell.NewScreen()
	if err == nil {
		err = s.Init()
	}
	if err != nil {
		r.Warn("the interactive mode needs a terminal: %s", browse.Escape(err.Error()))
		return 1
	}
	defer s.Fini()
	restoreOnSignal(s)
	color := !r.NoColor && os.Getenv("NO_COLOR") == ""
	opts := r.scanOptions()
	if r.Disks {
		if dir, err = r.pickDisk(s, color); dir == "" {
			return r.diskError(s, err)
		}
	}
	var quitPath string
	for {
		if t == nil {
			var ok bool
			var err error
			if t, ok, err = scanWithProgress(s, dir, opts, color); !ok {
				return 0 // the user stopped the scan before it read anything
			}
			if t == nil {
				s.Fini()
				r.Warn("%s", message.CannotReadDir(dir, err))
				return 1 // unreadable, or gone between the check and the scan
			}
		}
		err = browse.Run(s, r.browseConfig(t, imported, color, opts, &quitPath))
		if !errors.Is(err, browse.ErrDisks) {
			break
		}
		var pick error
		if dir, pick = r.pickDisk(s, color); dir == "" {
			return r.diskError(s, pick)
		}
		t, imported = nil, ""
	}
	var stopped *browse.Interrupted
	if errors.As(err, &stopped) {
		s.Fini()
		r.Warn("%s", stopped) // what the deletion did, its path escaped
		n, _ := stopped.Signal.(syscall.Signal)
		return 128 + int(n)
	}
	if err != nil {
		s.Fini()
		r.Warn("%s", browse.Escape(err.Error())) // escaped as on the screen
		return 1
	}
	if quitPath != "" {
		s.Fini() // the terminal restored first, so that only the path is on stdout
		line, err := browse.QuitLine(quitPath, r.OutIsTerminal)
		if err != nil {
			r.Warn("%s", err)
			return 1
		}
		fmt.Fprintln(r.Out, line)
	}
	return 0
}

// browseConfig is the browser's configuration for the tree t.
func (r *run) browseConfig(t *dutree.Tree, imported string, color bool, opts dutree.ScanOptions, quitPath *string) browse.Config {
	return browse.Config{
		Age: r.Age, ConfirmQuit: r.ConfirmQuit, QuitPath: quitPath,
		Tree: t, Version: version.Number(), Apparent: r.Du.Apparent, Format: r.Format,
		ReadOnly: r.ReadOnly, Imported: imported, Color: color, Mtime: r.Du.ShowTime, Mouse: !r.NoMouse,
		Rescan: func(ctx context.Context, path string, n *dutree.Node, p *dutree.Progress) ([]dutree.Error, error) {
			o := opts
			o.Progress = p
			return dutree.Rescan(ctx, path, n, o)
		},
		Export: func(name string) error {
			if name == "-" {
				return errors.New("standard output is the screen: name a file")
			}
			return r.export(name, t)
		},
		Disks: runtime.GOOS == "linux",
	}
}

// scanWithProgress scans dir while the screen shows how far it got. A
// scan the user stops keeps what it read, the tree Incomplete; ok is false
// when it had not listed dir yet. err is why there is no tree.
func scanWithProgress(s tcell.Screen, dir string, opts dutree.ScanOptions, color bool) (t *dutree.Tree, ok bool, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Progress = &dutree.Progress{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t, _, err = dutree.Scan(ctx, dir, opts)
	}()
	if browse.ScanProgress(s, dir, opts.Progress, done, color, "then browse what it read") {
		cancel()
		<-done
		return t, t != nil, err
	}
	return t, true, err
}

// restoreOnSignal puts the terminal back (raw mode off, the main screen)
// when a signal ends fdu, as ncdu does: 128 and the signal is the status.
// A ctrl-c or ctrl-\ typed in the browser's shell is the shell's. During a
// deletion the signal stops it at its next entry instead, and browse
// returns, for fdu to say what it deleted before it exits so.
func restoreOnSignal(s tcell.Screen) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT)
	go func() {
		for sig := range sigs {
			if (sig == syscall.SIGINT || sig == syscall.SIGQUIT) && browse.ShellRunning() {
				continue
			}
			if browse.StopDeletion(sig) {
				continue
			}
			s.Fini()
			n, _ := sig.(syscall.Signal)
			os.Exit(128 + int(n))
		}
	}()
}
