package main

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/cmd/internal/complete"
	"github.com/pbednarcik/flexreaddir/cmd/internal/complete/shelltest"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"--completion=" + shell}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("--completion=%s: exit %d, %s", shell, code, errb.String())
	}
	return out.String()
}

func TestCompletionScriptsParse(t *testing.T) {
	for _, shell := range complete.Shells {
		t.Run(shell, func(t *testing.T) { shelltest.Parses(t, shell, completionScript(t, shell)) })
	}
}

// TestCompletionBash: fdu --ma<TAB> offers --max-depth and the browser's
// --max-age, each with its '=' as it takes a value; and --time=<TAB>
// offers its words.
func TestCompletionBash(t *testing.T) {
	s := completionScript(t, "bash")
	dir := t.TempDir()
	if got := shelltest.Bash(t, s, dir, "fdu", "--ma"); !slices.Equal(got, []string{"--max-depth=", "--max-age="}) {
		t.Errorf("fdu --ma: offered %q", got)
	}
	if got := shelltest.Bash(t, s, dir, "fdu", "--time", "=", "a"); !slices.Equal(got, []string{"atime", "access"}) {
		t.Errorf("fdu --time=a: offered %q", got)
	}
}

// TestCompletionLongOptions: the long options offered are getopt's table,
// every one, and no other (not the parser's names for -k and -m).
func TestCompletionLongOptions(t *testing.T) {
	var offered []string
	for _, f := range completionProgram().Flags {
		if f.Long != "" {
			offered = append(offered, f.Long)
		}
	}
	known := append(slices.Clone(duLongOptions), fduLongOptions...)
	sort.Strings(offered)
	sort.Strings(known)
	if !slices.Equal(offered, known) {
		t.Errorf("offered %q\ngetopt's %q", offered, known)
	}
}

// TestCompletionChoices: each word offered for a value is one fdu takes.
func TestCompletionChoices(t *testing.T) {
	dir := t.TempDir()
	for _, f := range completionProgram().Flags {
		for _, w := range f.Choices {
			args := []string{"--" + f.Long + "=" + w, dir}
			if f.Long == "time-style" {
				args = append([]string{"--time"}, args...)
			}
			var out, errb bytes.Buffer
			if code := run(args, strings.NewReader(""), &out, &errb); code != 0 {
				t.Errorf("%q: exit %d, %s", args, code, errb.String())
			}
		}
	}
}

func TestCompletionUnknownShell(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--completion=csh"}, strings.NewReader(""), &out, &errb); code != 1 || !strings.Contains(errb.String(), "csh") {
		t.Errorf("exit %d, %q", code, errb.String())
	}
}
