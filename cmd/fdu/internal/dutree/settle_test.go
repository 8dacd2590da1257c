//go:build unix

package dutree

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// settle waits until the files made so far in dir's file system are, by a
// deletion's measure, older than a scan begun after it: a tick of the
// coarse clock where times are exact (the rule is strictly before), the
// margin and more where they are not.
func settle(t testing.TB, dir string) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	st, err := statAt(fd, "")
	if err != nil {
		t.Fatal(err)
	}
	if exactTimes(fd, &st) {
		time.Sleep(20 * time.Millisecond)
	} else {
		time.Sleep(timeSlack + 100*time.Millisecond)
	}
}
