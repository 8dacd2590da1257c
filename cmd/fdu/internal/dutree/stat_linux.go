package dutree

import (
	"golang.org/x/sys/unix"
)

// statAt is the entry name in the directory fd (fd itself when name is
// ""), not followed if a link, from statx: with its birth time, its
// mount's id and whether it is a mount's root (Linux 5.8), which tells a
// bind mount of the same file system.
func statAt(fd int, name string) (diskEntry, error) {
	flags := unix.AT_SYMLINK_NOFOLLOW | unix.AT_NO_AUTOMOUNT
	if name == "" {
		flags |= unix.AT_EMPTY_PATH
	}
	var stx unix.Statx_t
	err := unix.Statx(fd, name, flags, unix.STATX_BASIC_STATS|unix.STATX_BTIME|unix.STATX_MNT_ID, &stx)
	for err == unix.EINTR {
		err = unix.Statx(fd, name, flags, unix.STATX_BASIC_STATS|unix.STATX_BTIME|unix.STATX_MNT_ID, &stx)
	}
	if err == unix.ENOSYS {
		return fstatAt(fd, name) // before Linux 4.11
	}
	if err != nil {
		return diskEntry{}, err
	}
	e := diskEntry{
		mode:  uint32(stx.Mode) & unix.S_IFMT,
		dev:   unix.Mkdev(stx.Dev_major, stx.Dev_minor), // as the scan's frd records it
		ino:   stx.Ino,
		nlink: uint64(stx.Nlink),
	}
	e.ctime = stx.Ctime.Sec*1e9 + int64(stx.Ctime.Nsec)
	if stx.Mask&unix.STATX_BTIME != 0 {
		e.btime, e.hasBtime = stx.Btime.Sec*1e9+int64(stx.Btime.Nsec), true
	}
	if stx.Mask&unix.STATX_MNT_ID != 0 {
		e.mnt, e.hasMnt = stx.Mnt_id, true
	}
	e.mountRoot = stx.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 && stx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0
	return e, nil
}

// zfsMagic is OpenZFS's f_type (x/sys has no name for it).
const zfsMagic = 0x2fc12fc1

// exactTimes reports whether the file system of the directory fd (top,
// its stat) stamps times to the ns: one of those known to, with birth
// times (ext4 with 128-byte inodes, the same f_type, keeps seconds and no
// birth time). The others' times are compared with a margin.
func exactTimes(fd int, top *diskEntry) bool {
	if !top.hasBtime {
		return false
	}
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC, zfsMagic:
		return true
	}
	return false
}
