//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package dirfd

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestMustCount: where there is no /proc/self/fd, Plan counts what is open
// only when twice the plan's need (3 workers of 2, 5 kept, 1 fixed, the
// reserve of 2 and 4 planned by others: 18) is over the limit.
func TestMustCount(t *testing.T) {
	for _, c := range []struct {
		lim  int
		want bool
	}{{35, true}, {36, false}, {37, false}} {
		if got := mustCount(3, 2, 5, 1, 4, c.lim); got != c.want {
			t.Errorf("limit %d: must count %v, want %v", c.lim, got, c.want)
		}
	}
}

// TestCountOpen: asking each descriptor counts one more while a duplicate
// is open, and as many as before once it is closed.
func TestCountOpen(t *testing.T) {
	before := countOpen(1 << 12)
	fd, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if fd >= 1<<12 {
		unix.Close(fd)
		t.Skipf("descriptor %d is beyond the 4,096 counted", fd)
	}
	during := countOpen(1 << 12)
	unix.Close(fd)
	if after := countOpen(1 << 12); during != before+1 || after != before {
		t.Errorf("%d open before a dup, %d with it, %d after it closed", before, during, after)
	}
}
