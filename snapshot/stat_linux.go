package snapshot

import (
	"io/fs"
	"os"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"golang.org/x/sys/unix"
)

const statxMask = unix.STATX_TYPE | unix.STATX_MODE | unix.STATX_NLINK | unix.STATX_UID | unix.STATX_GID |
	unix.STATX_MTIME | unix.STATX_CTIME | unix.STATX_INO | unix.STATX_SIZE

// lstatAt is one statx of name in d, without following a link or
// triggering an automount. It forces a FUSE or network file system to
// ask for the attributes again rather than answer from its cache, whose
// times may be a second old; local file systems ignore the flag.
func lstatAt(d dirFile, name string) (Entry, error) {
	const flags = unix.AT_SYMLINK_NOFOLLOW | unix.AT_NO_AUTOMOUNT | unix.AT_STATX_FORCE_SYNC
	var stx unix.Statx_t
	if err := statx(d.fd, name, flags, &stx); err != nil {
		return Entry{}, &os.PathError{Op: "statx", Path: joinPath(d.path, name), Err: err}
	}
	x := Entry{
		Type:       dirfd.ModeType(uint32(stx.Mode)),
		Perm:       permBits(uint32(stx.Mode)),
		Size:       int64(stx.Size),
		ModTime:    unixtime.Nanos(stx.Mtime.Sec, int64(stx.Mtime.Nsec)),
		ChangeTime: unixtime.Nanos(stx.Ctime.Sec, int64(stx.Ctime.Nsec)),
		FileID:     stx.Ino,
		Links:      uint64(stx.Nlink),
		UID:        stx.Uid,
		GID:        stx.Gid,
		Device:     unix.Mkdev(stx.Dev_major, stx.Dev_minor),
	}
	switch {
	case x.Type.IsDir():
		x.Size, x.Links = 0, 0
	case x.Type&fs.ModeDevice != 0:
		x.Size = int64(unix.Mkdev(stx.Rdev_major, stx.Rdev_minor))
	}
	return x, nil
}

// statx is unix.Statx without its allocation of a NUL-terminated copy of
// name (a name is at most 255 bytes: NAME_MAX), retried on EINTR.
func statx(fd int, name string, flags int, stx *unix.Statx_t) error {
	var buf [256]byte
	if len(name) >= len(buf) {
		_, err := dirfd.Retry(func() (int, error) { return 0, unix.Statx(fd, name, flags, statxMask, stx) })
		return err
	}
	copy(buf[:], name)
	for {
		_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(flags), statxMask, uintptr(unsafe.Pointer(stx)), 0)
		switch e {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return e
	}
}
