package tree

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// cloneWhole clones a whole tree in one call where the system has one; on
// Linux reflinks go file by file.
func cloneWhole(src string, parent int, name, dst string) (bool, error) { return false, nil }

// cloneData reflinks in's data into out (FICLONE).
func cloneData(out, in int) error { return unix.IoctlFileClone(out, in) }

func copyRange(in, out, n int) (int, error) { return unix.CopyFileRange(in, nil, out, nil, n, 0) }

func mknodAt(dirfd int, name string, mode uint32, dev int) error {
	return unix.Mknodat(dirfd, name, mode, dev)
}

// futimens sets the access and modification times of the open file fd:
// utimensat with a NULL path, as the C library's futimens does.
func futimens(fd int, atime, mtime unix.Timespec) error {
	ts := [2]unix.Timespec{atime, mtime}
	_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(fd), 0, uintptr(unsafe.Pointer(&ts[0])), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
