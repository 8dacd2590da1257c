package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTimeWordsAsDu: --time's and --time-style's words as gnulib's
// argmatch takes them: whole, or a start that means one thing; the valid
// words listed after an error; TIME_STYLE read only without
// --time-style.
func TestTimeWordsAsDu(t *testing.T) {
	du := gnuDu(t)
	dir := smallTree(t)
	cases := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--time=a", "t"}}, {nil, []string{"--time=c", "t"}}, {nil, []string{"--time=s", "t"}},
		{nil, []string{"--time=us", "t"}}, {nil, []string{"--time=", "t"}}, {nil, []string{"--time=mtime", "t"}},
		{nil, []string{"--time=modification", "t"}}, {nil, []string{"--time=atimex", "t"}},
		{nil, []string{"--time", "--time-style=bogus", "t"}}, {nil, []string{"--time-style=bogus", "t"}},
		{nil, []string{"--time", "--time-style=full", "t"}}, {nil, []string{"--time", "--time-style=l", "t"}},
		{nil, []string{"--time", "--time-style=", "t"}}, {nil, []string{"--time", "--time-style=posix-iso", "t"}},
		{nil, []string{"--time", "--time-style=iso", "t"}},
		{[]string{"TIME_STYLE=posix-full"}, []string{"--time", "t"}}, {[]string{"TIME_STYLE=x"}, []string{"--time", "t"}},
		{[]string{"TIME_STYLE="}, []string{"--time", "t"}}, {[]string{"TIME_STYLE=locale"}, []string{"--time", "t"}},
		{[]string{"TIME_STYLE=posix-posix-iso"}, []string{"--time", "t"}},
		{[]string{"TIME_STYLE=x"}, []string{"--time", "--time-style=iso", "t"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(append(append([]string{}, c.env...), c.args...), " "), func(t *testing.T) {
			compare(t, runDu(t, du, dir, c.env, c.args), runFdu(t, dir, c.env, c.args))
		})
	}
}

// TestTrailingSlashesAsDu: fts_open trims a run of trailing slashes to
// one, in what du prints and in its messages.
func TestTrailingSlashesAsDu(t *testing.T) {
	du := gnuDu(t)
	dir := smallTree(t)
	if err := os.WriteFile(filepath.Join(dir, "t", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"d/", "d//", "d/sub/"}, {"d///"}, {"-a", "t//"}, {"-a", "t///"}, {"t//a//"}, {"-s", "t//", "t"},
		{"t//./"}, {"-a", "t/f//"}, {"-L", "t//"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			compare(t, runDu(t, du, dir, nil, args), runFdu(t, dir, nil, args))
		})
	}
}
