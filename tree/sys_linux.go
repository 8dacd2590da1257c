package tree

import (
	"strconv"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cloneWhole clones a whole tree in one call where the system has one; on
// Linux reflinks go file by file.
func cloneWhole(srcDir int, srcName string, parent int, name, dst string) (bool, error) {
	return false, nil
}

// cloneData reflinks in's data into out (FICLONE).
func cloneData(out, in int) error { return unix.IoctlFileClone(out, in) }

func copyFileRange(in int, roff *int64, out int, woff *int64, n int) (int, error) {
	return unix.CopyFileRange(in, roff, out, woff, n, 0)
}

// renameNoReplace moves the finished clone from its work directory to its
// own name, failing with EEXIST rather than replacing anything that
// appeared there meanwhile.
func renameNoReplace(fromDir int, from string, toDir int, to string) error {
	return unix.Renameat2(fromDir, from, toDir, to, unix.RENAME_NOREPLACE)
}

// dropACLs removes the POSIX ACLs of the open directory fd, its access
// ACL and the default one its entries would inherit; a file system
// without ACLs has none to remove.
func dropACLs(fd int) error {
	for _, name := range []string{"system.posix_acl_default", "system.posix_acl_access"} {
		err := unix.Fremovexattr(fd, name)
		if err != nil && err != unix.ENODATA && err != unix.EOPNOTSUPP {
			return err
		}
	}
	return nil
}

// birthTime is the open file fd's birth time, where the file system keeps
// one (statx's STATX_BTIME).
func birthTime(fd int) (time.Time, bool) {
	var stx unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_BTIME, &stx) != nil || stx.Mask&unix.STATX_BTIME == 0 {
		return time.Time{}, false
	}
	return time.Unix(stx.Btime.Sec, int64(stx.Btime.Nsec)), true
}

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

// testNoFchmodat2, set by a test, makes chmodNoFollow behave as on a
// kernel without fchmodat2; a test sets procFD elsewhere to behave as
// without /proc.
var (
	testNoFchmodat2 bool
	procFD          = "/proc/self/fd/"
)

// chmodNoFollow sets the mode of name in the open directory dirfd, never
// through a symbolic link. fchmodat2 with AT_SYMLINK_NOFOLLOW does that
// from Linux 6.6. Before it, as the C library does: open name with O_PATH
// and O_NOFOLLOW, which pins that very inode and never leads through a
// link, refuse a link (EOPNOTSUPP, as fchmodat2 does), and change the mode
// through /proc/self/fd, which names the open inode, not a path. Without
// /proc, the inode is opened again for reading (O_NONBLOCK, so a FIFO put
// in its place does not block), checked to be the same, and fchmod'ed.
func chmodNoFollow(dirfd int, name string, mode uint32) error {
	if !testNoFchmodat2 {
		err := fchmodat2(dirfd, name, mode, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.ENOSYS {
			return err
		}
	}
	fd, err := openNoFollow(dirfd, name)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return unix.EOPNOTSUPP
	}
	return chmodFd(fd, &st, dirfd, name, mode)
}

// openNoFollow opens name in dirfd to stat and change it, never through a
// link and without opening the file itself (O_PATH: no FIFO blocks, no
// device acts on an open).
func openNoFollow(dirfd int, name string) (int, error) {
	return unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}

// chmodFd sets the mode of the file open as fd (by openNoFollow; st is its
// fstat): fchmodat2 with AT_EMPTY_PATH from Linux 6.6, else through
// /proc/self/fd, else, without /proc, name in dirfd opened again for
// reading and checked to be the same inode.
func chmodFd(fd int, st *unix.Stat_t, dirfd int, name string, mode uint32) error {
	if !testNoFchmodat2 {
		err := fchmodat2(fd, "", mode, unix.AT_EMPTY_PATH)
		if err != unix.ENOSYS {
			return err
		}
	}
	err := unix.Chmod(procFD+strconv.Itoa(fd), mode)
	if err != unix.ENOENT {
		return err
	}
	rfd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(rfd)
	var again unix.Stat_t
	if err := unix.Fstat(rfd, &again); err != nil {
		return err
	}
	if again.Dev != st.Dev || again.Ino != st.Ino {
		return unix.ESTALE // replaced in the meantime
	}
	return unix.Fchmod(rfd, mode)
}

// fchmodat2 is the system call itself (x/sys's Fchmodat turns its ENOSYS
// into EOPNOTSUPP, which a link also gives).
func fchmodat2(dirfd int, name string, mode uint32, flags int) error {
	p, err := unix.BytePtrFromString(name)
	if err != nil {
		return err
	}
	_, _, errno := unix.Syscall6(unix.SYS_FCHMODAT2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(mode), uintptr(flags), 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// errNoAttr is getxattr's answer for a name the file does not have.
const errNoAttr = unix.ENODATA

// openPathFlags opens a directory only to work relative to it.
const openPathFlags = unix.O_PATH

// inheritsGroup says whether a new file always takes its directory's
// group (BSD semantics), rather than only under a set-group-ID directory.
const inheritsGroup = false
