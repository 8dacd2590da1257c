//go:build unix && !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package walk

import (
	"io/fs"
	"syscall"
)

// sysIDs is a stat's device and inode, where the system gives them.
func sysIDs(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
