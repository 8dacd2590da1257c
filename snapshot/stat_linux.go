package snapshot

import (
	"io/fs"
	"os"

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
	if _, err := dirfd.Retry(func() (int, error) { return 0, unix.Statx(d.fd, name, flags, statxMask, &stx) }); err != nil {
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
