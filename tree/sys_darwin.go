package tree

import (
	"time"

	"golang.org/x/sys/unix"
)

// cloneWhole clones srcName of srcDir, a whole tree, file or link, at name
// in parent with one clonefileat(2) and CLONE_NOFOLLOW (a link given as
// the source is cloned as a link). done is false when the volume cannot
// clone (ENOTSUP, EXDEV), so the caller goes file by file. NOT VERIFIED ON
// A MAC.
func cloneWhole(srcDir int, srcName string, parent int, name, dst string) (done bool, err error) {
	err = unix.Clonefileat(srcDir, srcName, parent, name, unix.CLONE_NOFOLLOW)
	switch err {
	case nil:
		return true, nil
	case unix.ENOTSUP, unix.EXDEV:
		return false, nil
	}
	return true, dstErr("clonefileat", dst, err)
}

// cloneData: macOS clones whole trees (cloneWhole), not into open files.
func cloneData(out, in int) error { return unix.ENOTSUP }

// copyFileRange: macOS has no copy_file_range; copyRange reads and writes.
func copyFileRange(in int, roff *int64, out int, woff *int64, n int) (int, error) {
	return 0, unix.ENOSYS
}

// renameNoReplace moves the finished clone from its work directory to its
// own name, failing with EEXIST rather than replacing anything there
// (renameatx_np with RENAME_EXCL). NOT VERIFIED ON A MAC.
func renameNoReplace(fromDir int, from string, toDir int, to string) error {
	return unix.RenameatxNp(fromDir, from, toDir, to, unix.RENAME_EXCL)
}

// dropACLs: macOS's extended ACLs are not POSIX ACLs, and are left as
// they are (NOT VERIFIED ON A MAC: an inherited ACL entry stays).
func dropACLs(fd int) error { return nil }

// birthTime is the open file fd's birth time.
func birthTime(fd int) (time.Time, bool) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return time.Time{}, false
	}
	return time.Unix(st.Btim.Unix()), true
}

// mknodAt: x/sys has no mknodat for macOS; special files are not made
// again there.
func mknodAt(dirfd int, name string, mode uint32, dev int) error { return unix.ENOTSUP }

// futimens sets fd's times, to the microsecond (futimes).
func futimens(fd int, atime, mtime unix.Timespec) error {
	return unix.Futimes(fd, []unix.Timeval{unix.NsecToTimeval(atime.Nano()), unix.NsecToTimeval(mtime.Nano())})
}

// chmodNoFollow sets the mode of name in the open directory dirfd, never
// through a symbolic link: macOS's fchmodat takes AT_SYMLINK_NOFOLLOW.
func chmodNoFollow(dirfd int, name string, mode uint32) error {
	return unix.Fchmodat(dirfd, name, mode, unix.AT_SYMLINK_NOFOLLOW)
}

// openNoFollow opens name in dirfd to stat and change it, never through a
// link; O_NONBLOCK so that a FIFO put in its place does not block.
func openNoFollow(dirfd int, name string) (int, error) {
	return unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
}

// chmodFd sets the mode of the file open as fd.
func chmodFd(fd int, _ *unix.Stat_t, _ int, _ string, mode uint32) error {
	return unix.Fchmod(fd, mode)
}

// errNoAttr is getxattr's answer for a name the file does not have.
const errNoAttr = unix.ENOATTR

// openPathFlags opens a directory only to work relative to it.
const openPathFlags = unix.O_RDONLY

// inheritsGroup says whether a new file always takes its directory's
// group (BSD semantics), rather than only under a set-group-ID directory.
const inheritsGroup = true
