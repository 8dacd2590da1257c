package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/walk"
)

// TestPrintPathsEscapesForATerminal: for a terminal a path is escaped, so
// a name cannot retitle or clear it; for a pipe it is printed as it is.
func TestPrintPathsEscapesForATerminal(t *testing.T) {
	d := &walk.Dir{Path: "top", Entries: []frd.Entry{{Name: "X\x1b]2;PWN\x07"}}}
	for _, tc := range []struct {
		escape bool
		want   string
	}{{true, "top/X\\x1b]2;PWN\\a\n"}, {false, "top/X\x1b]2;PWN\x07\n"}} {
		var buf bytes.Buffer
		out := bufio.NewWriter(&buf)
		if err := printPaths(out, &sync.Mutex{}, '\n', tc.escape)(d); err != nil {
			t.Fatal(err)
		}
		out.Flush()
		if buf.String() != tc.want {
			t.Errorf("escape %v: %q, want %q", tc.escape, buf.String(), tc.want)
		}
	}
}

// TestFindEscapesTheDirForATerminal: a DIR given on the command line may
// be another user's name, through a glob (frd find /tmp/*): for a
// terminal it is escaped as the paths below it are.
func TestFindEscapesTheDirForATerminal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "X\x1b]2;PWN\x07")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := toTerminal
	toTerminal = func(io.Writer) bool { return true }
	defer func() { toTerminal = old }()
	var out, errb bytes.Buffer
	if code := run([]string{"find", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") || !strings.Contains(out.String(), `X\x1b]2;PWN\a`+"\n") {
		t.Errorf("find printed the DIR unescaped: %q", out.String())
	}
}
