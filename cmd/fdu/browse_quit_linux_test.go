package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrowserQuitPathOnATerminal: Q with stdout a terminal prints the
// path escaped, as the screen shows names: a directory named with an
// escape sequence does not colour, clear or retitle the terminal.
func TestBrowserQuitPathOnATerminal(t *testing.T) {
	root := t.TempDir()
	odd := "x\x1b[31mRED\x1b]2;title\x07"
	if err := os.MkdirAll(filepath.Join(root, odd), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startTerminal(t, 100, 30, nil, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("g", "Enter")
	tm.waitFor(`x\x1b[31mRED`)
	tm.keys("Q")
	s := tm.waitFor("fdu exited 0")
	if want := root + `/x\x1b[31mRED\x1b]2;title\a`; !strings.Contains(s, want) {
		t.Errorf("the path printed on the terminal is not %q:\n%s", want, s)
	}
}

// TestBrowserQuitPathWithANewline: Q with stdout a pipe or a file prints
// the path's bytes for cd "$(fdu -i)", but not a path holding a newline,
// which $(...) would cut at its end (leading cd elsewhere) and a reader
// of lines would split: nothing is printed, and fdu says why and exits 1.
func TestBrowserQuitPathWithANewline(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "dir\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	tm := startTerminalScript(t, 100, 30, nil, ">"+out, "", "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("g", "Enter")
	tm.waitFor(`dir\n`)
	tm.keys("Q")
	s := tm.waitFor("fdu exited 1")
	if !strings.Contains(s, "newline") {
		t.Errorf("no word of the newline:\n%s", s)
	}
	if got, err := os.ReadFile(out); err != nil || len(got) != 0 {
		t.Errorf("stdout: %q (%v), want nothing", got, err)
	}
}
