package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// evilName is a directory name that, written to a terminal as it is, sets
// the window's title to PWN, clears the screen and paints FAKE at row 5,
// column 10; escapedEvil is how fdu -i shows it.
const (
	evilName    = "X\x1b]2;PWN\x07\x1b[2J\x1b[5;10HFAKE"
	escapedEvil = `X\x1b]2;PWN\a\x1b[2J\x1b[5;10HFAKE`
)

// asNobody makes the helper run as user and group 65534 (the tmux tests
// that need an unreadable directory: root reads them all).
func asNobody() {
	err := syscall.Setgroups(nil)
	if err == nil {
		err = syscall.Setgid(65534)
	}
	if err == nil {
		err = syscall.Setuid(65534)
	}
	if err != nil {
		os.Stderr.WriteString("cannot run as nobody: " + err.Error() + "\n")
		os.Exit(3)
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkEscaped checks, once a line of the screen shows want, that this
// line shows evilName escaped, and that the screen shows nothing the name
// would do in a terminal: the pane's title is not PWN, no FAKE painted at
// row 5 (every FAKE on the screen ends an escaped name), no escape
// sequence other than colours.
func checkEscaped(t *testing.T, tm *terminal, want string) {
	t.Helper()
	var s, line string
	for deadline := time.Now().Add(20 * time.Second); line == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		s = sgr.ReplaceAllString(tm.tmux("capture-pane", "-p", "-e", "-t", "fdu"), "")
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, want) {
				line = l
			}
		}
	}
	if line == "" {
		t.Errorf("the screen never showed %q:\n%s", want, s)
	} else if !strings.Contains(line, escapedEvil) {
		t.Errorf("the line lacks the escaped name %s: %q", escapedEvil, line)
	}
	if title := strings.TrimSpace(tm.tmux("display-message", "-p", "-t", "fdu", "#{pane_title}")); strings.Contains(title, "PWN") {
		t.Errorf("the pane's title was set: %q", title)
	}
	for i, l := range strings.Split(s, "\n") {
		for _, at := range regexp.MustCompile(`FAKE`).FindAllStringIndex(l, -1) {
			if !strings.HasSuffix(l[:at[0]], `\x1b[5;10H`) {
				t.Errorf("FAKE painted on row %d at %d: %q", i+1, at[0], l)
			}
		}
	}
	if strings.ContainsAny(s, "\x07\x1b") {
		t.Errorf("escape sequences beyond colours: %q", s)
	}
}

// evilTree is root with the directory evilName (the largest entry, so the
// one selected) and two small files.
func evilTree(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, evilName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, size := range map[string]int{filepath.Join(evilName, "big"): 1 << 20, "a": 10, "b": 20} {
		if err := os.WriteFile(filepath.Join(root, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBrowserEscapesErrors: a name with terminal escape sequences reaches
// the screen escaped through the errors that carry it: a deletion refused
// (the directory replaced by a link after the scan), a rescan that failed
// (the directory shown replaced) and a rescan's error list (a directory
// made unreadable, fdu run as nobody), and the line printed when a shell
// starts in it.
func TestBrowserEscapesErrors(t *testing.T) {
	t.Run("delete", func(t *testing.T) {
		root := t.TempDir()
		dir := evilTree(t, root)
		tm := startTerminal(t, 250, 24, nil, "-i", root)
		tm.waitFor("Total disk usage")
		if err := os.Rename(dir, filepath.Join(root, "moved")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("moved", dir); err != nil {
			t.Fatal(err)
		}
		tm.keys("d")
		tm.waitFor("Confirm delete")
		tm.keys("y")
		checkEscaped(t, tm, "Cannot delete")
		if _, err := os.Stat(filepath.Join(root, "moved", "big")); err != nil {
			t.Errorf("deleted through the link: %v", err)
		}
	})
	t.Run("rescan failed", func(t *testing.T) {
		root := t.TempDir()
		dir := evilTree(t, root)
		tm := startTerminal(t, 250, 24, nil, "-i", root)
		tm.waitFor("Total disk usage")
		tm.keys("Enter")
		tm.waitFor("big")
		if err := os.Rename(dir, filepath.Join(root, "old")); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		tm.keys("r")
		checkEscaped(t, tm, "Rescan failed")
	})
	t.Run("rescan errors", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("skipping: needs root, to run fdu as nobody and make a directory it cannot read")
		}
		root := testfs.WorldDir(t)
		dir := evilTree(t, root)
		tm := startTerminal(t, 250, 24, []string{helperEnv + "_NOBODY=1"}, "-i", root)
		tm.waitFor("Total disk usage")
		if err := os.Chmod(dir, 0); err != nil {
			t.Fatal(err)
		}
		tm.keys("r")
		checkEscaped(t, tm, "Rescanned, with 1 errors")
	})
	t.Run("shell", func(t *testing.T) {
		root := t.TempDir()
		evilTree(t, root)
		tm := startTerminal(t, 250, 24, []string{"SHELL=/bin/sh", "PS1=shell$ "}, "-i", root)
		tm.waitFor("Total disk usage")
		tm.keys("Enter")
		tm.waitFor("big")
		tm.keys("b")
		checkEscaped(t, tm, "fdu: a shell in")
		tm.keys("exit", "Enter")
		tm.waitFor("Back from the shell")
	})
}
