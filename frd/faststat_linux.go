package frd

import (
	"time"

	"golang.org/x/sys/unix"
)

// fastStats decides, window by window, whether a Lister's statx calls go
// around the scheduler (RawSyscall6) or through it (Syscall6).
//
// Telling the scheduler of a system call and back costs as much as a third
// of a cached statx (BENCHMARKS.md), and it buys one thing: when the call
// blocks, the P is handed to another goroutine. A stat of a cached inode on
// a local file system does not block. So a stat goes around the scheduler
// only on a file system that is local (a hung NFS or FUSE server must not
// hold a P, and with it the collector's stop of the world) and while the
// last window of stats was as fast as cached ones are; a slow window (the
// inodes are being read from the disk) sends them through the scheduler
// again, so a cold walk keeps its Ps for the goroutines that can run. A
// directory starts through the scheduler: its first stat tells its device.
type fastStats struct {
	fast   bool // this window's stats go around the scheduler
	resume bool // the last directory's did, on device localDev

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

// beginDir starts a directory's stats through the scheduler.
func (f *fastStats) beginDir() {
	f.resume = f.resume || f.fast
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

// statx stats the NUL-terminated name relative to dirfd into s.stx.
func (s *sysLister) statx(dirfd int, name *byte, mask int) error {
	f := &s.fastStats
	raw := f.fast
	if testHookStat != nil {
		testHookStat(raw)
	}
	err := ignoringEINTR(func() error { return statxAt(dirfd, name, mask, &s.stx, raw) })
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
	}
}

// localDevice says whether dev, dirfd's device, is a local file system,
// asking the kernel once per device in a row.
func (s *sysLister) localDevice(dirfd int, dev uint64) bool {
	f := &s.fastStats
	if f.localKnown && f.localDev == dev {
		return f.local
	}
	var st unix.Statfs_t
	if err := ignoringEINTR(func() error { return unix.Fstatfs(dirfd, &st) }); err != nil {
		return false
	}
	f.localKnown, f.localDev, f.local = true, dev, localFS(uint32(st.Type))
	return f.local
}

func statxDev(stx *unix.Statx_t) uint64 { return unix.Mkdev(stx.Dev_major, stx.Dev_minor) }

// localFS says whether a file system type (statfs's f_type) keeps its
// inodes on a local disk or in memory: not NFS, SMB, FUSE or the like.
func localFS(t uint32) bool {
	switch t {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC, unix.RAMFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC,
		unix.EXFAT_SUPER_MAGIC, unix.MSDOS_SUPER_MAGIC, unix.NILFS_SUPER_MAGIC, unix.REISERFS_SUPER_MAGIC,
		unix.SQUASHFS_MAGIC, unix.EROFS_SUPER_MAGIC_V1:
		return true
	}
	return false
}
