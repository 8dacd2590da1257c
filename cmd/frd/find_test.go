package main

import (
	"bufio"
	"bytes"
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
