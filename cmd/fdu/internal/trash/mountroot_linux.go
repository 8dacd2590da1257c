package trash

import "golang.org/x/sys/unix"

// mountRoot reports whether the directory fd is the root of a mount (a
// bind mount of the same file system included), where a $topdir ends.
func mountRoot(fd int) bool {
	var stx unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BASIC_STATS, &stx) != nil {
		return false
	}
	return stx.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 && stx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0
}
