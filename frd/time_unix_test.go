//go:build unix && (amd64 || arm64 || riscv64 || ppc64 || ppc64le || s390x || loong64 || mips64 || mips64le)

package frd

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTimesBeyondInt64 sets a file's time past 2262, which int64
// nanoseconds cannot hold: the listing and Stat say math.MaxInt64 rather
// than a time wrapped into 1678 or 1970.
func TestTimesBeyondInt64(t *testing.T) {
	dir := tempDir(t)
	name := writeFile(t, dir, "future", 1)
	const sec = 13569465600 // 2400-01-01, within ext4's, XFS's and tmpfs's range
	ts := []unix.Timespec{{Sec: sec}, {Sec: sec, Nsec: 5}}
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, name, ts, 0); err != nil {
		t.Skipf("cannot set a time in 2400: %v", err)
	}
	var st unix.Stat_t
	must(t, unix.Stat(name, &st))
	if int64(st.Mtim.Sec) != sec {
		t.Skipf("the file system keeps %d, not %d", st.Mtim.Sec, sec)
	}
	es, err := ReadDir(dir)
	must(t, err)
	if len(es) != 1 || es[0].ModTimeNanos != math.MaxInt64 {
		t.Fatalf("ReadDir: %+v, want ModTimeNanos %d", es, int64(math.MaxInt64))
	}
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	var l Lister
	got, err := l.Stat([]Entry{{Name: filepath.Base(name)}}, f.Fd(), dir)
	must(t, err)
	if len(got) != 1 || got[0].ModTimeNanos != math.MaxInt64 {
		t.Fatalf("Stat: %+v, want ModTimeNanos %d", got, int64(math.MaxInt64))
	}
}
