// Package shelltest runs completion scripts in the shells they are for,
// for the tests of the commands that make them.
package shelltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Parses fails t unless shell reads script without a syntax error
// (shell -n); it skips when the shell is not installed.
func Parses(t *testing.T, shell, script string) {
	t.Helper()
	need(t, shell)
	f := filepath.Join(t.TempDir(), "completion."+shell)
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(shell, "-n", f).CombinedOutput(); err != nil {
		t.Errorf("%s -n: %v\n%s", shell, err, out)
	}
}

// need skips t where shell is not installed, and on Windows, whose bash
// (Git's) is not where the scripts are installed.
func need(t *testing.T, shell string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the completion scripts are for Unix shells")
	}
	if _, err := exec.LookPath(shell); err != nil {
		t.Skipf("%s is not installed", shell)
	}
}

// driver sources a bash script and runs its completion function on the
// words after it, as bash would on <TAB> at the end of the last word.
const driver = `source "$1"; shift
COMP_WORDS=("$@") COMP_CWORD=$(($# - 1))
COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
"$(complete -p "$1" | sed 's/.*-F \([^ ]*\) .*/\1/')" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
`

// Bash is what script, sourced in bash in dir, offers for the words
// (the command first, the word being completed last, "" for a new one):
// bash's own splitting of --name=value at the '=' is the caller's to
// make ("--time", "=", "a").
func Bash(t *testing.T, script, dir string, words ...string) []string {
	t.Helper()
	need(t, "bash")
	f := filepath.Join(t.TempDir(), "completion.bash")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{"-c", driver, "bash", f}, words...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash completion of %q: %v\n%s", words, err, out)
	}
	var offered []string
	for _, w := range strings.Split(string(out), "\n") {
		if w != "" {
			offered = append(offered, w)
		}
	}
	return offered
}
