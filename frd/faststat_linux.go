package frd

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// fastStats decides, window by window, whether a Lister's statx calls go
// around the scheduler (RawSyscall6) or through it (Syscall6), under
// Lister.FastStats.
//
// Telling the scheduler of a system call and back costs as much as a third
// of a cached statx (BENCHMARKS.md), and it buys one thing: when the call
// blocks, the P is handed to another goroutine. A stat of a cached inode on
// a local file system does not block. So a stat goes around the scheduler
// only on a device that is a local file system on a local disk or in
// memory (a hung NFS or FUSE server, or the one behind a loop device, must
// not hold a P, and with it the collector's stop of the world), of the
// directory's own device, and while the last window of stats was as fast
// as cached ones are; a slow window (the inodes are being read from the
// disk) or a file on another device (a mount) sends them through the
// scheduler again. A directory starts through the scheduler: its first
// stat tells its device.
type fastStats struct {
	enabled bool // Lister.FastStats
	fast    bool // this window's stats go around the scheduler
	resume  bool // the last directory's did, on device localDev

	stats       int       // stats made in this window
	windowStart time.Time // when the window began

	localKnown bool   // localDev has been asked about
	localDev   uint64 // the last device asked about
	local      bool   // and whether it is a local file system
}

// fastWindow is the stats per window.
const fastWindow = 16

// fastMax is more than a cached stat takes, less than most reads from a
// disk (a test sets it).
var fastMax = 8 * time.Microsecond

// testHookStat, when set by a test, is told how each stat is made.
var testHookStat func(raw bool)

// beginDir starts a directory's stats through the scheduler; enabled is
// Lister.FastStats.
func (f *fastStats) beginDir(enabled bool) {
	f.enabled = enabled
	f.resume = enabled && (f.resume || f.fast)
	f.fast = false
	f.stats = 0
	f.windowStart = time.Time{}
}

// startWindow starts a window's clock if none runs.
func (f *fastStats) startWindow(now time.Time) {
	if f.stats == 0 {
		f.windowStart = now
	}
}

// statx stats the NUL-terminated name relative to dirfd into s.stx, under
// Lister.FastStats through fastStatx. The callers branch themselves on
// the hot path: a call more per entry here costs about 20 instructions of
// the plain listing's 660 (callgrind).
func (s *sysLister) statx(dirfd int, name *byte, mask int) error {
	if s.fastStats.enabled {
		return s.fastStatx(dirfd, name, mask)
	}
	return plainStatx(dirfd, name, mask, &s.stx)
}

// plainStatx is statxAt through the scheduler, again on EINTR.
func plainStatx(dirfd int, name *byte, mask int, stx *unix.Statx_t) error {
	for {
		if err := statxAt(dirfd, name, mask, stx, false); err != unix.EINTR {
			return err
		}
	}
}

// fastStatx is statx under Lister.FastStats.
func (s *sysLister) fastStatx(dirfd int, name *byte, mask int) error {
	f := &s.fastStats
	raw := f.fast
	if testHookStat != nil {
		testHookStat(raw)
	}
	err := ignoringEINTR(func() error { return statxAt(dirfd, name, mask, &s.stx, raw) })
	if raw && (err != nil || statxDev(&s.stx) != f.localDev) {
		f.fast = false // a mount, or a failure: the next stat through the scheduler
	}
	if f.stats++; f.stats == 1 && f.resume {
		// The directory's first stat: go on as the last one went if it is
		// on the same local device.
		f.resume = false
		f.fast = err == nil && f.localKnown && f.local && statxDev(&s.stx) == f.localDev
	} else if f.stats >= fastWindow {
		s.endWindow(dirfd, err == nil)
	}
	return err
}

// endWindow decides how the next window's stats go.
func (s *sysLister) endWindow(dirfd int, statOK bool) {
	f := &s.fastStats
	now := time.Now()
	slow := f.windowStart.IsZero() || now.Sub(f.windowStart) > fastWindow*fastMax
	f.windowStart, f.stats = now, 0
	switch {
	case slow:
		f.fast = false
	case !f.fast && statOK:
		f.fast = s.localDevice(dirfd, statxDev(&s.stx))
		// Asking may itself have blocked (an overlay's statfs asks the
		// layers below): then not now.
		f.fast = f.fast && time.Since(now) <= fastWindow*fastMax
	}
}

// localDevice says whether dev, the device of a file in dirfd, is a local
// file system on a local disk or in memory, asking the kernel once per
// device in a row. A file on another device than its directory's (a mount
// over it) is not taken as telling the directory's.
func (s *sysLister) localDevice(dirfd int, dev uint64) bool {
	f := &s.fastStats
	if f.localKnown && f.localDev == dev {
		return f.local
	}
	var st unix.Stat_t
	var sfs unix.Statfs_t
	if ignoringEINTR(func() error { return unix.Fstat(dirfd, &st) }) != nil || uint64(st.Dev) != dev ||
		ignoringEINTR(func() error { return unix.Fstatfs(dirfd, &sfs) }) != nil {
		return false
	}
	f.localKnown, f.localDev = true, dev
	f.local = localFS(uint32(sfs.Type)) && localBlock(unix.Major(dev), unix.Minor(dev), 0)
	return f.local
}

// localBlock says whether the block device major:minor is a local disk:
// not a loop device (its image may be on NFS or FUSE) nor an nbd one, nor
// made of one (device mapper, md: through their slaves in sysfs). A device
// sysfs does not know (tmpfs's anonymous ones, btrfs's) is taken as local.
func localBlock(major, minor uint32, depth int) bool {
	if major == 43 || depth > 8 { // nbd; or a stack deeper than any real one
		return false
	}
	dir := fmt.Sprintf("/sys/dev/block/%d:%d", major, minor)
	if _, err := os.Stat(dir + "/loop"); err == nil {
		return false
	}
	slaves, _ := os.ReadDir(dir + "/slaves")
	for _, sl := range slaves {
		b, err := os.ReadFile(dir + "/slaves/" + sl.Name() + "/dev")
		var ma, mi uint32
		if err != nil {
			return false
		}
		if _, err := fmt.Sscanf(string(b), "%d:%d", &ma, &mi); err != nil || !localBlock(ma, mi, depth+1) {
			return false
		}
	}
	return true
}

func statxDev(stx *unix.Statx_t) uint64 { return unix.Mkdev(stx.Dev_major, stx.Dev_minor) }

// localFS says whether a file system type (statfs's f_type) keeps its
// inodes on its own device or in memory: not NFS, SMB, FUSE, nor overlayfs
// (whose layers may be any of them).
func localFS(t uint32) bool {
	switch t {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC, unix.RAMFS_MAGIC,
		unix.EXFAT_SUPER_MAGIC, unix.MSDOS_SUPER_MAGIC, unix.NILFS_SUPER_MAGIC, unix.REISERFS_SUPER_MAGIC,
		unix.SQUASHFS_MAGIC, unix.EROFS_SUPER_MAGIC_V1:
		return true
	}
	return false
}
