package frd

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// countStats lists dir with l and counts its stats made around the
// scheduler and through it; second is how the second stat went.
func countStats(t *testing.T, l *Lister, dir string) (raw, sched int, second bool) {
	t.Helper()
	testHookStat = func(r bool) {
		if raw+sched == 1 {
			second = r
		}
		if r {
			raw++
		} else {
			sched++
		}
	}
	defer func() { testHookStat = nil }()
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	if _, err := l.AppendDir(nil, f); err != nil {
		t.Fatal(err)
	}
	return raw, sched, second
}

func manyFiles(t *testing.T, n int) string {
	dir := tempDir(t)
	for i := range n {
		writeFile(t, dir, fmt.Sprintf("f%04d", i), i%7)
	}
	return dir
}

// TestFastStatsLocal: on a local file system a large directory's stats go
// around the scheduler after the first window, and the next directory on
// the same device from its second stat; the listing is os's. No window is
// taken as slow here: one the machine slowed would go through the
// scheduler.
func TestFastStatsLocal(t *testing.T) {
	dir := manyFiles(t, 200)
	defer func(d time.Duration) { fastMax = d }(fastMax)
	fastMax = time.Second
	l := Lister{FastStats: true}
	raw, sched, second := countStats(t, &l, dir)
	if raw != 200-fastWindow || sched != fastWindow || second {
		t.Errorf("first listing: %d stats around the scheduler, %d through it (the second %v); want most around, not the second",
			raw, sched, second)
	}
	raw, sched, second = countStats(t, &l, dir)
	if raw != 199 || sched != 1 || !second {
		t.Errorf("second listing: %d around, %d through (the second %v); want all but the first around", raw, sched, second)
	}
	checkSameAsOS(t, dir, mustList(t, dir))
}

// TestFastStatsNotRemote: on a file system not known to be local (procfs
// here, standing for NFS or FUSE) every stat goes through the scheduler,
// also right after a fast directory on another device.
func TestFastStatsNotRemote(t *testing.T) {
	for _, magic := range []uint32{unix.NFS_SUPER_MAGIC, unix.FUSE_SUPER_MAGIC, unix.PROC_SUPER_MAGIC,
		unix.SMB_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC, unix.CEPH_SUPER_MAGIC, unix.AFS_FS_MAGIC, unix.V9FS_MAGIC} {
		if localFS(magic) {
			t.Errorf("%#x taken as local", magic)
		}
	}
	const proc = "/proc/sys/kernel"
	files := 0
	if des, err := os.ReadDir(proc); err == nil {
		for _, d := range des {
			if d.Type().IsRegular() {
				files++
			}
		}
	}
	if files < 2*fastWindow {
		t.Skipf("%s has %d files, fewer than two windows", proc, files)
	}
	defer func(d time.Duration) { fastMax = d }(fastMax)
	fastMax = time.Second
	l := Lister{FastStats: true}
	l.Failed = func(error) {} // a sysctl may not stat
	if raw, _, _ := countStats(t, &l, manyFiles(t, 100)); raw == 0 {
		t.Fatal("the local directory's stats never went around the scheduler")
	}
	if raw, sched, _ := countStats(t, &l, proc); raw != 0 {
		t.Errorf("%s: %d stats around the scheduler, %d through it", proc, raw, sched)
	}
}

// TestFastStatsSlowWindow: a window slower than cached stats (the disk is
// being read) keeps the stats going through the scheduler.
func TestFastStatsSlowWindow(t *testing.T) {
	dir := manyFiles(t, 200)
	defer func(d time.Duration) { fastMax = d }(fastMax)
	fastMax = 0
	l := Lister{FastStats: true}
	if raw, _, _ := countStats(t, &l, dir); raw != 0 {
		t.Errorf("%d stats around the scheduler in slow windows", raw)
	}
}

// TestFastStatsOff: without Lister.FastStats no stat goes around the
// scheduler.
func TestFastStatsOff(t *testing.T) {
	var l Lister
	if raw, _, _ := countStats(t, &l, manyFiles(t, 200)); raw != 0 {
		t.Errorf("%d stats around the scheduler without FastStats", raw)
	}
	if l.sys.fast || l.sys.resume || l.sys.localKnown {
		t.Errorf("fast-stat state kept without FastStats: %+v", l.sys.fastStats)
	}
}

// TestFastStatsMountedFile: a file of another file system mounted over an
// entry (here procfs's, standing for a FUSE or NFS file) ends a fast window
// at once, is never taken as telling the directory's device, and leaves no
// trace that would let a later directory on its device go fast (the
// device is not cached as local from the directory's statfs).
func TestFastStatsMountedFile(t *testing.T) {
	defer func(d time.Duration) { fastMax = d }(fastMax)
	fastMax = time.Second
	for _, c := range []struct{ n, k int }{{200, 0}, {200, fastWindow - 1}, {200, fastWindow}, {200, 100}, {fastWindow, fastWindow - 1}} {
		n, k := c.n, c.k
		t.Run(fmt.Sprint(n, "/", k), func(t *testing.T) {
			dir := manyFiles(t, n)
			f, err := os.Open(dir)
			must(t, err)
			names, err := (&Lister{Names: true}).AppendDir(nil, f)
			f.Close()
			must(t, err)
			testfs.BindMount(t, "/proc/version", filepath.Join(dir, names[k].Name))
			l := Lister{FastStats: true}
			var seq []bool
			testHookStat = func(raw bool) { seq = append(seq, raw) }
			f, err = os.Open(dir)
			must(t, err)
			_, err = l.AppendDir(nil, f)
			f.Close()
			testHookStat = nil
			must(t, err)
			if len(seq) != n {
				t.Fatalf("%d stats, want %d", len(seq), n)
			}
			if k+1 < n && seq[k+1] {
				t.Errorf("the stat after the mounted file went around the scheduler")
			}
			if l.sys.localKnown && l.sys.localDev == statxDevOf(t, filepath.Join(dir, names[k].Name)) {
				t.Errorf("procfs's device taken as local")
			}
			if raw, sched, _ := countStats(t, &l, "/proc/sys/kernel"); raw != 0 {
				t.Errorf("/proc/sys/kernel after it: %d around the scheduler, %d through", raw, sched)
			}
		})
	}
}

func statxDevOf(t *testing.T, path string) uint64 {
	var stx unix.Statx_t
	must(t, unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_INO, &stx))
	return statxDev(&stx)
}

// TestFastStatsLoopDevice: a file system on a loop device (whose image
// may be on NFS or FUSE) is not local, whatever its type.
func TestFastStatsLoopDevice(t *testing.T) {
	defer func(d time.Duration) { fastMax = d }(fastMax)
	fastMax = time.Second
	mnt := testfs.LoopMount(t, "ext4")
	for i := range 100 {
		writeFile(t, mnt, fmt.Sprint("f", i), 1)
	}
	l := Lister{FastStats: true}
	if raw, sched, _ := countStats(t, &l, mnt); raw != 0 {
		t.Errorf("ext4 on a loop device: %d stats around the scheduler, %d through", raw, sched)
	}
}

// TestLocalBlockDepth: a disk is asked about through at most nine levels
// of devices made of devices (depth 0 to 8), more than any real stack;
// the ninth level's answer is the disk's own, the tenth is refused.
func TestLocalBlockDepth(t *testing.T) {
	var st unix.Stat_t
	if err := unix.Stat(os.TempDir(), &st); err != nil {
		t.Fatal(err)
	}
	ma, mi := unix.Major(st.Dev), unix.Minor(st.Dev)
	if _, err := os.Stat(fmt.Sprintf("/sys/dev/block/%d:%d", ma, mi)); err != nil || !localBlock(ma, mi, 0) {
		t.Skipf("skipping: %s is not on a local disk sysfs knows (%d:%d)", os.TempDir(), ma, mi)
	}
	if !localBlock(ma, mi, 8) || localBlock(ma, mi, 9) {
		t.Errorf("%d:%d at depth 8: %v, at 9: %v; want true, false", ma, mi, localBlock(ma, mi, 8), localBlock(ma, mi, 9))
	}
}
