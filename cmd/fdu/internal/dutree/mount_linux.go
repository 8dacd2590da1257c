package dutree

import "golang.org/x/sys/unix"

// mountRoot reports whether the directory fd is the root of a mount, a
// bind mount of the same file system included (statx's
// STATX_ATTR_MOUNT_ROOT, Linux 5.8): a deletion never goes into one.
func mountRoot(fd int) bool {
	var stx unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW, 0, &stx) != nil {
		return false
	}
	return stx.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 && stx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0
}
