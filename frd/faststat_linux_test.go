package frd

import (
	"fmt"
	"os"
	"testing"
	"time"

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
	var l Lister
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
	var l Lister
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
	var l Lister
	if raw, _, _ := countStats(t, &l, dir); raw != 0 {
		t.Errorf("%d stats around the scheduler in slow windows", raw)
	}
}
