package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary run the command with these arguments
// (separated by \x1f), as a process a test can signal.
const helperEnv = "FRD_COMMAND_HELPER"

func TestMain(m *testing.M) {
	if args := os.Getenv(helperEnv); args != "" {
		os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestKilledClone signals a running clone: SIGINT, SIGTERM, SIGHUP and
// SIGQUIT leave nothing (the work directory is removed) and exit 128 plus
// the signal's number; SIGKILL leaves only the work directory, never a
// partial tree at the destination.
func TestKilledClone(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	for i := range 40 {
		d := filepath.Join(src, fmt.Sprint("d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 500 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprint("f", j)), []byte("data"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGKILL} {
		out := filepath.Join(base, "out-"+sig.String())
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(out, "dst")
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join([]string{"clone", "--method", "copy", "-j", "1", src, dst}, "\x1f"))
		if err := cmd.Start(); err != nil {
			t.Skipf("skipping: cannot run the test binary again (under an emulator?): %v", err)
		}
		waitForTemp(t, out)
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		names := entries(t, out)
		switch {
		case err == nil:
			t.Errorf("%v: the clone finished before the signal; make the tree larger", sig)
		case sig == syscall.SIGKILL:
			if len(names) != 1 || !strings.HasPrefix(names[0], ".frd-clone-") || !strings.HasSuffix(names[0], "-dst") {
				t.Errorf("SIGKILL left %q, want only the temporary name", names)
			}
		default:
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) || len(names) != 0 {
				t.Errorf("%v: exit %d, left %q; want %d and nothing", sig, code, names, 128+int(sig))
			}
		}
	}
}

// waitForTemp waits until a clone's temporary tree in dir has begun.
func waitForTemp(t *testing.T, dir string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(time.Millisecond) {
		for _, n := range entries(t, dir) {
			if sub, _ := os.ReadDir(filepath.Join(dir, n)); len(sub) > 0 {
				return
			}
		}
	}
	t.Fatal("no temporary tree appeared")
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}
