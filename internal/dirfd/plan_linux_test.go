package dirfd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// setNofile sets RLIMIT_NOFILE's soft limit for the test.
func setNofile(t *testing.T, cur uint64) {
	t.Helper()
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	if cur > old.Max {
		t.Skipf("RLIMIT_NOFILE's hard limit %d is below %d", old.Max, cur)
	}
	lim := old
	lim.Cur = cur
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Setrlimit(unix.RLIMIT_NOFILE, &old) })
}

// TestDefaultKeptBounds: a quarter of the limit, at least 4 and at most
// 1,024, at each bound and a step either side.
func TestDefaultKeptBounds(t *testing.T) {
	for _, c := range []struct {
		lim  uint64
		want int
	}{{8, 4}, {16, 4}, {19, 4}, {20, 5}, {4092, 1023}, {4096, 1024}, {4100, 1024}} {
		setNofile(t, c.lim)
		if got := DefaultKept(); got != c.want {
			t.Errorf("RLIMIT_NOFILE %d: %d kept, want %d", c.lim, got, c.want)
		}
	}
}

// TestPlanShares: with avail descriptors left (the limit less those open,
// 2 in reserve and the fixed one) a plan for 4 workers of 2 descriptors
// each and 3 kept gets what fits: all of it, fewer workers, one worker,
// then nothing kept; kept is cut to half of what is left before workers
// are. Each plan reserves exactly what it was given.
func TestPlanShares(t *testing.T) {
	for _, c := range []struct {
		avail, kept int
		w, k        int
	}{
		{20, 3, 4, 3}, {11, 3, 4, 3}, {10, 3, 3, 3}, {5, 3, 1, 3}, {2, 3, 1, 0}, {1, 3, 1, 0}, {0, 3, 1, 0},
		{10, 8, 2, 6}, {10, -1, 4, 0},
	} {
		open := openFDs(t)
		setNofile(t, uint64(open+reserve+1+c.avail))
		w, k, release := Plan(4, c.kept, 2, 1)
		if w != c.w || k != c.k {
			t.Errorf("%d left, %d kept asked: %d workers, %d kept; want %d, %d", c.avail, c.kept, w, k, c.w, c.k)
		}
		if got := reserved.Load(); got != int64(w*2+k+1) {
			t.Errorf("%d left: %d reserved, want %d", c.avail, got, w*2+k+1)
		}
		release()
	}
}

// TestCloseZero: descriptor 0 is a descriptor; only negative ones are not.
func TestCloseZero(t *testing.T) {
	saved, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { unix.Dup2(saved, 0); unix.Close(saved) }()
	Close(0)
	if _, err := unix.FcntlInt(0, unix.F_GETFD, 0); err != unix.EBADF {
		t.Errorf("descriptor 0 after Close(0): %v, want EBADF", err)
	}
	Close(-1) // no descriptor: nothing to do, no panic
}

// TestOpenFindsReplaced: a directory identified once and replaced by
// another under its name is refused, at its own level and through an
// ancestor (the error naming the ancestor); one never identified opens.
func TestOpenFindsReplaced(t *testing.T) {
	s := NewSet(0)
	root, nodes := chain(t, s, 2)
	defer s.CloseAll()
	d1 := filepath.Join(root, "d")
	for i, n := range nodes[1:] {
		fd, err := n.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Fstat(fd)
		if err != nil {
			t.Fatal(err)
		}
		unix.Close(fd)
		if i == 0 {
			n.Identify(st.Device, st.FileID)
		}
	}
	if err := os.Rename(d1, d1+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(d1, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fd, err := nodes[1].Open(d1); !errors.Is(err, ErrReplaced) {
		unix.Close(fd)
		t.Errorf("d replaced: %v, want ErrReplaced", err)
	}
	fd, err := nodes[2].Open(filepath.Join(d1, "d"))
	var pe *os.PathError
	if !errors.Is(err, ErrReplaced) || !errors.As(err, &pe) || pe.Path != d1 {
		unix.Close(fd)
		t.Errorf("d/d under a replaced d: %v, want ErrReplaced at %s", err, d1)
	}
	nodes[1].Identify(0, 0)
	if fd, err := nodes[1].Open(d1); err != nil {
		t.Errorf("d never identified: %v", err)
	} else {
		unix.Close(fd)
	}
}

// TestSetCounts: a descriptor taken back frees its place in the budget, a
// forced one never held one; an eviction keeps the count; taking the
// first, a middle or the last one kept leaves the others for CloseAll.
func TestSetCounts(t *testing.T) {
	s := NewSet(1)
	root, nodes := chain(t, s, 4)
	open := func(n *Node) int {
		fd, err := n.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		return fd
	}
	fd := open(nodes[1])
	if !s.Keep(nodes[1], fd, false) {
		t.Fatal("the first refused")
	}
	unix.Close(s.Take(nodes[1]))
	fd = open(nodes[2])
	if !s.Keep(nodes[2], fd, false) {
		t.Error("a place given back not reused")
		unix.Close(fd)
	}
	unix.Close(s.Take(nodes[0])) // the forced root: no place to give back
	fd = open(nodes[3])
	if s.Keep(nodes[3], fd, false) {
		t.Error("two kept in a budget of one after the root was taken")
	}
	unix.Close(fd)
	s.CloseAll()

	e := NewEvictingSet(1)
	root, nodes = chain(t, e, 4)
	for _, n := range nodes[1:] {
		fd := open(n)
		if !e.Keep(n, fd, false) {
			t.Fatal("an evicting set refused")
		}
	}
	if e.n != 1 || nodes[1].Fd() != -1 || nodes[4].Fd() < 0 {
		t.Errorf("after three evictions: %d counted, the first kept %d, the last %d", e.n, nodes[1].Fd(), nodes[4].Fd())
	}
	e.CloseAll()

	for _, take := range []int{0, 1, 2} {
		s := NewSet(3)
		root, nodes = chain(t, s, 3) // nodes[0], the root, is kept last: the newest
		kept := []*Node{nodes[0]}
		for _, n := range nodes[1:] {
			if !s.Keep(n, open(n), false) {
				t.Fatal("refused within the budget")
			}
			kept = append(kept, n)
		}
		unix.Close(s.Take(kept[take]))
		s.CloseAll()
		for i, n := range kept {
			if fd := n.Fd(); fd != -1 {
				t.Errorf("taking %d of 4: %d still holds %d after CloseAll", take, i, fd)
				unix.Close(fd)
			}
		}
	}
}

// TestOpenAtNoFollow: a symbolic link to a directory is opened only when
// the node says to follow it, by OpenAt and by a node's Open.
func TestOpenAtNoFollow(t *testing.T) {
	s := NewSet(0)
	root, nodes := chain(t, s, 1)
	defer s.CloseAll()
	if err := os.Symlink("d", filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	rfd := nodes[0].Fd()
	if fd, err := OpenAt(rfd, "l", false, "l"); err == nil {
		unix.Close(fd)
		t.Error("OpenAt followed a symbolic link")
	}
	if fd, err := (&Node{Parent: nodes[0], Name: "l"}).Open("l"); err == nil {
		unix.Close(fd)
		t.Error("Open followed a symbolic link")
	}
	for _, open := range []func() (int, error){
		func() (int, error) { return OpenAt(rfd, "l", true, "l") },
		func() (int, error) { return (&Node{Parent: nodes[0], Name: "l", Follow: true}).Open("l") },
	} {
		fd, err := open()
		if err != nil {
			t.Errorf("a followed link: %v", err)
			continue
		}
		unix.Close(fd)
	}
}

// TestFailedOpensGiveNoDescriptor: every failed open returns -1, never a
// number a caller could close by mistake: OpenAt, a node under its kept
// parent, one found again through the chain, a replaced one.
func TestFailedOpensGiveNoDescriptor(t *testing.T) {
	s := NewSet(0)
	root, nodes := chain(t, s, 1)
	defer s.CloseAll()
	rfd := nodes[0].Fd()
	if fd, err := OpenAt(rfd, "missing", false, "missing"); fd != -1 || err == nil {
		t.Errorf("OpenAt of a missing name: %d, %v", fd, err)
	}
	if fd, err := (&Node{Parent: nodes[0], Name: "missing"}).Open("missing"); fd != -1 || err == nil {
		t.Errorf("a missing node under its kept parent: %d, %v", fd, err)
	}
	if fd, err := (&Node{Parent: nodes[1], Name: "missing"}).Open("d/missing"); fd != -1 || err == nil {
		t.Errorf("a missing node found through the chain: %d, %v", fd, err)
	}
	fd, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	n := &Node{}
	n.Identify(1, 1) // no directory is inode 1 of device 1 here
	if got, err := n.verify(fd, nil); got != -1 || !errors.Is(err, ErrReplaced) {
		t.Errorf("a replaced directory: %d, %v", got, err)
	}
}

// TestFstatAllocated: Allocated is st_blocks in bytes, 512 to a block.
func TestFstatAllocated(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		t.Fatal(err)
	}
	e, err := Fstat(fd)
	if err != nil || st.Blocks == 0 || e.Allocated != st.Blocks*512 {
		t.Errorf("Allocated %d (%v), want %d blocks of 512", e.Allocated, err, st.Blocks)
	}
}

// TestOpenWithNoKeptAncestor: a node with no kept descriptor above it, a
// root itself or one under a root not kept, fails with EBADF and gives no
// descriptor.
func TestOpenWithNoKeptAncestor(t *testing.T) {
	root := &Node{}
	for _, n := range []*Node{root, {Parent: root, Name: "d"}} {
		if fd, err := n.Open("d"); fd != -1 || !errors.Is(err, unix.EBADF) {
			Close(fd)
			t.Errorf("%q with no kept ancestor: %d, %v, want EBADF", n.Name, fd, err)
		}
	}
}
