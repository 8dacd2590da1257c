package snapshot

import (
	"time"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// Linux's statfs f_type numbers of the file systems Device knows.
const (
	magicExt    = 0xEF53 // ext2, ext3, ext4
	magicXFS    = 0x58465342
	magicBtrfs  = 0x9123683E
	magicTmpfs  = 0x01021994
	magicF2FS   = 0xF2F52010
	magicFAT    = 0x4d44
	magicExFAT  = 0x2011BAB0
	magicNFS    = 0x6969
	magicFUSE   = 0x65735546
	magicSMB2   = 0xFE534D42
	magicCIFS   = 0xFF534D42
	magicOverla = 0x794c7630
)

// classify finds what is known of the file system holding the open file
// fd (a directory, or an O_PATH descriptor), whose st_dev is id.
func classify(fd int, id uint64) Device {
	var sf unix.Statfs_t
	if _, err := dirfd.Retry(func() (int, error) { return 0, unix.Fstatfs(fd, &sf) }); err != nil {
		return unknownDevice(id)
	}
	d := Device{ID: id, FSType: uint64(uint32(sf.Type)), Granularity: time.Nanosecond, DirTimes: true, StableIDs: true, ChangeTimes: true}
	switch d.FSType {
	case magicExt:
		// ext4's nanoseconds (and birth times) live in the inode's extra
		// space, which 128-byte inodes (ext2, ext3, small images) lack.
		var stx unix.Statx_t
		err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_BTIME, &stx)
		if err != nil || stx.Mask&unix.STATX_BTIME == 0 {
			d.Granularity = time.Second
		}
	case magicXFS, magicBtrfs, magicTmpfs, magicF2FS:
	case magicNFS, magicSMB2, magicCIFS:
		// Times come from the server's clock and attribute cache:
		// listed every time, a window of 2 s.
		d.Granularity, d.DirTimes = 2*time.Second, false
	default:
		// FAT and exFAT (2 s steps, no change time, inode numbers made up
		// from where an entry sits), FUSE, overlayfs and the rest.
		d = unknownDevice(id)
		d.FSType = uint64(uint32(sf.Type))
	}
	return d
}

// classifyAt classifies the file system of name in d, a mount point or a
// file bound over another, without following a link.
func classifyAt(d dirFile, name string, id uint64) Device {
	fd, err := unix.Openat(d.fd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return unknownDevice(id)
	}
	defer unix.Close(fd)
	return classify(fd, id)
}

// classifyDir classifies the file system of the open directory d.
func classifyDir(d dirFile, id uint64) Device { return classify(d.fd, id) }

// clockStep is the step of the clock the kernel stamps files with: the
// coarse clock, a jiffy (1 to 10 ms).
func clockStep() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGetres(unix.CLOCK_REALTIME_COARSE, &ts); err != nil || ts.Nano() <= 0 {
		return 10 * time.Millisecond
	}
	return time.Duration(ts.Nano())
}
