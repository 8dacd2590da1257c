package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// slowUnlinkEnv makes fdu, run by a test, wait that long (a duration)
// before each entry a deletion removes, so that a signal can come in the
// middle of one.
const slowUnlinkEnv = "FDU_TEST_SLOW_UNLINK"

func init() {
	if d, err := time.ParseDuration(os.Getenv(slowUnlinkEnv)); err == nil {
		dutree.BeforeUnlink = func() { time.Sleep(d) }
	}
}

// childOf is the pid of the one child of the process pid.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		if f := strings.Fields(string(b)); len(f) == 1 {
			n, _ := strconv.Atoi(f[0])
			return n
		}
	}
	t.Fatalf("process %d has no one child", pid)
	return 0
}

func countDir(t *testing.T, dir string) int {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	return len(names)
}

// TestSignalDuringDeletion: SIGTERM, SIGINT and SIGHUP sent with kill
// while fdu -i deletes a directory of 20,000 files stop the deletion at
// the next entry; fdu restores the terminal, says on stderr how much it
// deleted, as many as went from disk, and what it did not, and exits with
// 128 and the signal.
func TestSignalDuringDeletion(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		name := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT", syscall.SIGHUP: "SIGHUP"}[sig]
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			big := filepath.Join(root, "big")
			if err := os.Mkdir(big, 0o755); err != nil {
				t.Fatal(err)
			}
			const n = 20000
			for i := range n {
				if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%05d", i)), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(root, "small"), []byte("x"), 0o644)
			time.Sleep(20 * time.Millisecond) // the files older than the scan by a tick
			stderr := filepath.Join(t.TempDir(), "stderr")
			tm := startTerminalScript(t, 100, 30, []string{slowUnlinkEnv + "=200us"}, "2>'"+stderr+"'",
				`stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' ' | sed 's/^/tty: /'`, "-i", root)
			tm.waitFor("Total disk usage")
			tm.keys("d")
			tm.waitFor("Delete " + big + "?")
			shell, _ := strconv.Atoi(strings.TrimSpace(tm.tmux("display", "-p", "-t", "fdu", "#{pane_pid}")))
			fdu := childOf(t, shell)
			tm.keys("y")
			for deadline := time.Now().Add(20 * time.Second); countDir(t, big) > n-100; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the deletion never started:\n%s", tm.screen())
				}
			}
			if err := syscall.Kill(fdu, sig); err != nil {
				t.Fatal(err)
			}
			s := tm.waitFor("tty: ")
			if !strings.Contains(s, fmt.Sprintf("fdu exited %d", 128+int(sig))) {
				t.Errorf("exit status, want %d:\n%s", 128+int(sig), s)
			}
			if !strings.Contains(s, "tty: icanon echo") || strings.Contains(s, "Total disk usage") {
				t.Errorf("the terminal was not restored:\n%s", s)
			}
			out, _ := os.ReadFile(stderr)
			re := regexp.MustCompile(`^fdu: ` + name + ` during the deletion of (.+): ([0-9,]+) files and 0 directories deleted \(.+\); not deleted: the rest of (.+) \(([0-9,]+) entries\)\n$`)
			m := re.FindStringSubmatch(string(out))
			if m == nil || m[1] != big || m[3] != big {
				t.Fatalf("stderr %q, want it to match %s", out, re)
			}
			left := countDir(t, big)
			deleted, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
			notDeleted, _ := strconv.Atoi(strings.ReplaceAll(m[4], ",", ""))
			if deleted != n-left || notDeleted != left+1 || left == 0 {
				t.Errorf("fdu says %d deleted and %d entries left; %d of %d files are left", deleted, notDeleted, left, n)
			}
		})
	}
}
