package main

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// TestDeepChainMemory: fdu, -a and -s on a chain 1,000 levels deep of
// 200-byte names with a sibling at every level print what GNU du prints,
// in a bounded peak: holding every level's path at once, as the report
// and the walk once did, is the sum of 1,000 paths of up to 200 KB
// (100 MB) several times over; one path at a time is 200 KB.
func TestDeepChainMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds a 2,000-directory chain")
	}
	skipEmulated(t)
	const limit = 64 << 20
	root := t.TempDir()
	name := strings.Repeat("n", 200)
	unix.Close(testfs.Chain(t, root, name, 1000, []string{"side"}, nil))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	du, duErr := exec.LookPath("du")
	for _, args := range [][]string{{root}, {"-a", root}, {"-s", root}} {
		cmd := exec.Command(self)
		// -j 1: no extra workers for visits slowed by the machine's load,
		// each with its own path and listing; the paths held are measured.
		fduArgs := append([]string{"-j", "1"}, args...)
		// A tight GOMEMLIMIT keeps the heap near what is live, so that the
		// peak is what fdu holds, not how far the collector let it grow.
		cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join(fduArgs, "\x1f"), "GOMEMLIMIT=16MiB")
		got := sha256.New()
		cmd.Stdout = got
		if err := cmd.Run(); err != nil {
			t.Fatalf("fdu %q: %v", args[:len(args)-1], err)
		}
		peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
		t.Logf("fdu %q: peak %d bytes", args[:len(args)-1], peak)
		if peak > limit {
			t.Errorf("fdu %q: peak %d bytes, want at most %d", args[:len(args)-1], peak, limit)
		}
		if duErr != nil {
			continue
		}
		want := sha256.New()
		ref := exec.Command(du, args...)
		ref.Env = cleanEnv()
		ref.Stdout = want
		if err := ref.Run(); err != nil {
			t.Fatalf("du %q: %v", args, err)
		}
		if string(got.Sum(nil)) != string(want.Sum(nil)) {
			t.Errorf("fdu %q prints other lines than du", args[:len(args)-1])
		}
	}
}
