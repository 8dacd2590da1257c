//go:build unix

package main

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// The file system's part of writing an export in place of a file.

// newFileMode is the mode open(2) gives a new file: 0666 less the umask,
// read (and put back) before any other goroutine creates a file.
func newFileMode() os.FileMode {
	mask := unix.Umask(0)
	unix.Umask(mask)
	return os.FileMode(0o666 &^ mask)
}

// links is st's hard-link count.
func links(st os.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink)
	}
	return 1
}

// sameOwner gives f the owner and group of old, where allowed.
func sameOwner(f *os.File, old os.FileInfo) {
	if sys, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(sys.Uid), int(sys.Gid)) // only root may give a file away
	}
}
