package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/age"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/walk"
)

// browseFlags are fdu's interactive options, which du does not have.
type browseFlags struct {
	interactive, readOnly, noColor, noMouse, confirmQuit *bool
	export, load                                         *string
	maxAge, minAge, since, until                         *string
	age                                                  *age.Filter // the four above, read
	// -e, --exclude-caches, --exclude-kernfs, --ignore-from, --disks
	extended, excludeCaches, excludeKernFS, disks *bool
	ignoreFrom                                    *string
}

// browseMode checks the interactive options: -i browses a scan, -o
// exports one (or the file -f reads), -f browses a saved one.
func (c *command) browseMode(cfg *config, v *flagValues) (int, bool) {
	bf := v.browse
	if !*bf.interactive && *bf.export == "" && *bf.load == "" {
		if *bf.readOnly || *bf.noColor || *bf.noMouse || *bf.confirmQuit || *bf.disks || ageGiven(bf) {
			c.warn("--read-only, --no-color, --no-mouse, --confirm-quit, --disks and the age filters go with -i or -f")
			return c.tryHelp(), false
		}
		if opt := browserOnly(v); opt != "" {
			c.warn("%s goes with -i, -o or -f", opt)
			return c.tryHelp(), false
		}
		return 0, true
	}
	f, err := age.Parse(*bf.maxAge, *bf.minAge, *bf.since, *bf.until, time.Now(), time.Local)
	if err != nil {
		c.warn("%v", err)
		return c.tryHelp(), false
	}
	if f.Active() && *bf.export != "" {
		c.warn("the age filters are the browser's: -o writes the whole scan")
		return c.tryHelp(), false
	}
	v.browse.age = f
	if code, ok := c.browseExtras(cfg, v); !ok {
		return code, false
	}
	if cfg.report.View != "" {
		c.warn("-i, -o and -f are not --%s: choose one", cfg.report.View)
		return c.tryHelp(), false
	}
	if opt := unsupportedInBrowser(cfg, v); opt != "" {
		c.warn("-i, -o and -f do not take %s", opt)
		return c.tryHelp(), false
	}
	cfg.browse = true
	return 0, true
}

// ageGiven reports whether an age filter was given.
func ageGiven(bf browseFlags) bool {
	return *bf.maxAge != "" || *bf.minAge != "" || *bf.since != "" || *bf.until != ""
}

// unsupportedInBrowser names a du option the browser does not honour, or "".
func unsupportedInBrowser(cfg *config, v *flagValues) string {
	for _, o := range []struct{ flag, name string }{
		{"all", "-a"}, {"summarize", "-s"}, {"total", "-c"}, {"max-depth", "-d"}, {"threshold", "-t"},
		{"separate-dirs", "-S"}, {"count-links", "-l"}, {"inodes", "--inodes"}, {"null", "-0"},
		{"files0-from", "--files0-from"}, {"dereference-args", "-D"}, {"H", "-H"},
	} {
		if v.fl.Changed(o.flag) {
			return o.name
		}
	}
	if cfg.du.ShowTime && cfg.du.TimeType != "mtime" {
		return "--time=" + cfg.du.TimeType + " (only the modification time is kept)"
	}
	return ""
}

// browseRun runs -i, -o or -f and returns the exit status.
func (c *command) browseRun(cfg *config, v *flagValues, files []string) int {
	bf := v.browse
	if *bf.load != "" && len(v.fl.Args()) > 0 {
		c.warn("-f reads a saved scan: extra operand %s", message.Quote(files[0]))
		return c.tryHelp()
	}
	if *bf.disks && (*bf.load != "" || *bf.export != "" || len(v.fl.Args()) > 0) {
		c.warn("--disks chooses the directory to scan: no -f, -o or operand")
		return c.tryHelp()
	}
	if *bf.load == "" && len(files) > 1 {
		c.warn("-i and -o scan one directory: extra operand %s", message.Quote(files[1]))
		return c.tryHelp()
	}
	if *bf.load == "" && !c.scannable(files[0]) {
		return 1
	}
	if out := *bf.export; out != "" && out != "-" {
		if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
			c.warn("cannot write %s: %s", message.Quotef(out), message.Strerror(errOr(err, syscall.ENOTDIR)))
			return 1
		}
	}
	var tree *dutree.Tree
	imported := ""
	if *bf.load != "" {
		t, err := c.load(*bf.load, *bf.extended)
		if err != nil {
			c.warn("%s: %v", message.Quotef(*bf.load), err)
			return 1
		}
		tree, imported = t, *bf.load
	}
	if *bf.export != "" {
		if tree == nil && !c.streams(cfg) {
			if tree = c.scanQuietly(cfg, files[0]); tree == nil {
				return 1
			}
		}
		if tree == nil {
			return c.streamExport(cfg, files[0], *bf.export)
		}
		if err := c.export(*bf.export, tree, cfg.du.ShowTime); err != nil {
			c.warn("%s", message.FileError(*bf.export, err))
			return 1
		}
		return 0 // finish adds the scan's errors' status
	}
	return c.browse(cfg, v, tree, imported, files[0])
}

// scannable checks, before any screen or scan, that dir is a directory.
func (c *command) scannable(dir string) bool {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		c.warn("%s", message.CannotAccess(dir, err))
	case !st.IsDir():
		c.warn("cannot scan %s: Not a directory", message.Quote(dir))
	default:
		return true
	}
	return false
}

func errOr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

func (c *command) scanOptions(cfg *config) dutree.ScanOptions {
	// A walk's options per scan: a rescan may run beside a scan.
	o := dutree.ScanOptions{Walk: func() *walk.Options { return cfg.du.WalkOptions(false, nil) }}
	if cfg.du.Exclude.HasPatterns() {
		o.Exclude = cfg.du.Exclude.Excluded
	}
	c.scanExtras(cfg, &o)
	return o
}

func scanError(e dutree.Error) string {
	var pe *os.PathError
	if errors.As(e.Err, &pe) && strings.HasPrefix(pe.Op, "open") {
		return message.CannotReadDir(e.Path, e.Err)
	}
	return message.CannotAccess(e.Path, e.Err)
}

func (c *command) load(name string, extended bool) (*dutree.Tree, error) {
	var r io.Reader = c.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, errors.New(message.Strerror(err))
		}
		defer f.Close()
		r = f
	}
	t, _, err := dutree.ReadWith(r, dutree.ReadOptions{Extended: extended})
	return t, err
}

// browse scans dir with a progress screen (unless t was read from a
// file), then shows the browser.
func (c *command) browse(cfg *config, v *flagValues, t *dutree.Tree, imported, dir string) int {
	s, err := tcell.NewScreen()
	if err == nil {
		err = s.Init()
	}
	if err != nil {
		c.warn("the interactive mode needs a terminal: %s", browse.Escape(err.Error()))
		return 1
	}
	defer s.Fini()
	restoreOnSignal(s)
	color := !*v.browse.noColor && os.Getenv("NO_COLOR") == ""
	opts := c.scanOptions(cfg)
	if *v.browse.disks {
		if dir, err = c.pickDisk(s, cfg, v, color); dir == "" {
			return c.diskError(s, err)
		}
	}
	var quitPath string
	for {
		if t == nil {
			var ok bool
			if t, ok = scanWithProgress(s, dir, opts, color); !ok {
				return 0 // the user stopped the scan before it read anything
			}
			if t == nil {
				s.Fini()
				c.warn("%s", message.CannotReadDir(dir, nil))
				return 1 // gone between the check and the scan
			}
		}
		err = browse.Run(s, c.browseConfig(cfg, v, t, imported, color, opts, &quitPath))
		if !errors.Is(err, browse.ErrDisks) {
			break
		}
		var pick error
		if dir, pick = c.pickDisk(s, cfg, v, color); dir == "" {
			return c.diskError(s, pick)
		}
		t, imported = nil, ""
	}
	var stopped *browse.Interrupted
	if errors.As(err, &stopped) {
		s.Fini()
		c.warn("%s", stopped) // what the deletion did, its path escaped
		n, _ := stopped.Signal.(syscall.Signal)
		return 128 + int(n)
	}
	if err != nil {
		s.Fini()
		c.warn("%s", browse.Escape(err.Error())) // escaped as on the screen
		return 1
	}
	if quitPath != "" {
		s.Fini() // the terminal restored first, so that only the path is on stdout
		line, err := browse.QuitLine(quitPath, isTerminal(c.stdout))
		if err != nil {
			c.warn("%s", err)
			return 1
		}
		fmt.Fprintln(c.out, line)
	}
	return 0
}

// scanWithProgress scans dir while the screen shows how far it got. A
// scan the user stops keeps what it read, the tree Incomplete; ok is false
// when it had not listed dir yet.
func scanWithProgress(s tcell.Screen, dir string, opts dutree.ScanOptions, color bool) (t *dutree.Tree, ok bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Progress = &dutree.Progress{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t, _, _ = dutree.Scan(ctx, dir, opts)
	}()
	if browse.ScanProgress(s, dir, opts.Progress, done, color, "then browse what it read") {
		cancel()
		<-done
		return t, t != nil
	}
	return t, true
}

// sizeFormat is how the browser shows a size: ncdu's units, unless a du
// unit option (-B, -k, -m) asks for its numbers.
func sizeFormat(cfg *config, v *flagValues) func(int64) string {
	switch {
	case v.fl.Changed("si"):
		return func(n int64) string { return browse.Human(n, true) }
	case v.fl.Changed("block-size") || v.fl.Changed("kibibytes") || v.fl.Changed("mebibytes") || v.fl.Changed("bytes"):
		return func(n int64) string { return cfg.report.Unit.Format(uint64(max(n, 0))) }
	}
	return func(n int64) string { return browse.Human(n, false) }
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
