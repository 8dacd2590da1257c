package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/cmd/internal/complete"
	"github.com/pbednarcik/flexreaddir/cmd/internal/complete/shelltest"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"--completion=" + shell}, &out, &errb); code != 0 {
		t.Fatalf("--completion=%s: exit %d, %s", shell, code, errb.String())
	}
	return out.String()
}

func TestCompletionScriptsParse(t *testing.T) {
	for _, shell := range complete.Shells {
		t.Run(shell, func(t *testing.T) { shelltest.Parses(t, shell, completionScript(t, shell)) })
	}
}

// TestCompletionBash: the subcommands, then each one's options and values.
func TestCompletionBash(t *testing.T) {
	s := completionScript(t, "bash")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ words, want []string }{
		{[]string{"frd", "c"}, []string{"clone", "chmod"}},
		{[]string{"frd", "ls", "--"}, []string{"--json", "--names"}},
		{[]string{"frd", "clone", "--method", "h"}, []string{"hardlink"}},
		{[]string{"frd", "find", "s"}, []string{"sub"}},
	} {
		if got := shelltest.Bash(t, s, dir, c.words...); !slices.Equal(got, c.want) {
			t.Errorf("%q: offered %q, want %q", c.words, got, c.want)
		}
	}
}

// TestCompletionChoices: each word offered for a value is one frd clone
// takes.
func TestCompletionChoices(t *testing.T) {
	for _, c := range completionProgram().Subcommands {
		for _, f := range c.Flags {
			for _, w := range f.Choices {
				dir := t.TempDir()
				src := filepath.Join(dir, "src")
				if err := os.Mkdir(src, 0o755); err != nil {
					t.Fatal(err)
				}
				args := []string{c.Name, "--" + f.Long, w, src, filepath.Join(dir, "copy")}
				var out, errb bytes.Buffer
				// A method the file system lacks (reflink on tmpfs) fails
				// with 1; a word frd does not take is bad usage, 2, or
				// quoted in the error.
				if code := run(args, &out, &errb); code == 2 || strings.Contains(errb.String(), strconv.Quote(w)) {
					t.Errorf("%q: exit %d, %s", args, code, errb.String())
				}
			}
		}
	}
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "frd (flexreaddir) ") {
		t.Errorf("exit %d, %q", code, out.String())
	}
}
