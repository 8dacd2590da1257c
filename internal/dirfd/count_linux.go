package dirfd

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// countOpenFast counts this process's open descriptors from /proc/self/fd:
// a few system calls, whatever the limit.
func countOpenFast(int) (int, bool) {
	fd, err := unix.Open("/proc/self/fd", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer unix.Close(fd)
	var buf [4096]byte
	n := -3 // ".", ".." and fd itself
	for {
		k, err := unix.Getdents(fd, buf[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, false
		}
		if k == 0 {
			return max(n, 0), true
		}
		for b := buf[:k]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18])) // linux_dirent64.d_reclen
			if reclen == 0 || reclen > len(b) {
				return 0, false
			}
			n++
			b = b[reclen:]
		}
	}
}
