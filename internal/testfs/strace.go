//go:build linux

package testfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Strace runs the test binary again (running no test: its TestMain or an
// init does the work, told what by env) under strace -f with the flags
// given, and returns what strace wrote and what the binary printed. It
// fails the test if the binary fails, and skips it where strace is
// missing or the test binary cannot be run again (FRD_EMULATED).
func Strace(t testing.TB, env []string, flags ...string) (trace, output []byte) {
	t.Helper()
	if os.Getenv("FRD_EMULATED") != "" {
		t.Skip("skipping: runs the test binary again, which an emulated run (FRD_EMULATED) cannot")
	}
	path, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("skipping: no strace (apt-get install strace; .ci/run installs it)")
	}
	out := filepath.Join(t.TempDir(), "trace")
	args := append(append([]string{"-f", "-o", out}, flags...), os.Args[0], "-test.run", "^$")
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	output, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, output)
	}
	trace, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return trace, output
}

// CountCalls reads strace -c's table: each system call's count.
func CountCalls(table []byte) map[string]int {
	counts := map[string]int{}
	for _, line := range strings.Split(string(table), "\n") {
		f := strings.Fields(line)
		// % time, seconds, usecs/call, calls, [errors,] syscall
		if len(f) < 5 || f[0] == "%" || strings.HasPrefix(f[0], "-") || f[len(f)-1] == "total" {
			continue
		}
		if n, err := strconv.Atoi(f[3]); err == nil {
			counts[f[len(f)-1]] = n
		}
	}
	return counts
}
