package dirfd

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func openFDs(t *testing.T) int {
	t.Helper()
	n, ok := countOpenFast(0)
	if !ok {
		t.Fatal("no /proc/self/fd")
	}
	return n
}

// chain makes root/d0/d1/... depth deep and returns its nodes, root first
// (kept, forced, in s).
func chain(t *testing.T, s *Set, depth int) (string, []*Node) {
	t.Helper()
	root := t.TempDir()
	p := root
	for range depth {
		p = filepath.Join(p, "d")
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fd, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	nodes := []*Node{{}}
	s.Keep(nodes[0], fd, true)
	for i := range depth {
		nodes = append(nodes, &Node{Parent: nodes[i], Name: "d"})
	}
	return root, nodes
}

// TestEvictingSetKeepsTheDeepest: within its budget, an evicting set
// keeps the newest, so the next open near them costs one openat, and
// CloseAll closes all it holds.
func TestEvictingSetKeepsTheDeepest(t *testing.T) {
	before := openFDs(t)
	s := NewEvictingSet(2)
	root, nodes := chain(t, s, 6)
	for i := 1; i < len(nodes); i++ {
		fd, err := s.Open(nodes[i], root)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Keep(nodes[i], fd, false) {
			t.Fatalf("level %d not kept", i)
		}
	}
	if got := openFDs(t) - before; got != 3 {
		t.Errorf("%d descriptors open, want 3 (the root and the two deepest)", got)
	}
	for i, n := range nodes {
		if kept := n.Fd() >= 0; kept != (i == 0 || i >= len(nodes)-2) {
			t.Errorf("level %d kept: %v", i, kept)
		}
	}
	// Level 3 again: from the root, keeping levels 1 and 2 on the way.
	fd, err := s.Open(nodes[3], root)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
	if nodes[2].Fd() < 0 || nodes[1].Fd() < 0 {
		t.Error("the directories opened on the way were not kept")
	}
	if fd := s.Take(nodes[2]); fd < 0 {
		t.Error("Take found nothing")
	} else {
		unix.Close(fd)
	}
	s.CloseAll()
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after CloseAll, %d before", after, before)
	}
}

// TestSetRefusesBeyondItsBudget: a set that does not evict refuses, and
// a node kept meanwhile by another Open is not kept twice.
func TestSetRefusesBeyondItsBudget(t *testing.T) {
	s := NewSet(1)
	root, nodes := chain(t, s, 3)
	fd1, _ := nodes[1].Open(root)
	fd2, _ := nodes[2].Open(root)
	if !s.Keep(nodes[1], fd1, false) || s.Keep(nodes[2], fd2, false) {
		t.Error("the budget of one was not kept to")
	}
	if s.Keep(nodes[1], fd2, false) {
		t.Error("a node was kept twice")
	}
	unix.Close(fd2)
	s.CloseAll()
}

// TestPlanFitsTheLimit: at RLIMIT_NOFILE 16 a plan for 64 workers fits
// what is left, and reservations are shared until released.
func TestPlanFitsTheLimit(t *testing.T) {
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = 16
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	defer unix.Setrlimit(unix.RLIMIT_NOFILE, &old)
	open := openFDs(t)
	w, k, release := Plan(64, 0, 2, 1)
	if w < 1 || open+w*2+k+1 > 16 {
		t.Errorf("with %d open: %d workers, %d kept: over 16", open, w, k)
	}
	w2, k2, release2 := Plan(64, 0, 2, 1)
	// The second fits what the first left, or gets the least a walk needs.
	if total := open + (w*2 + k + 1) + (w2*2 + k2 + 1); total > 16 && (w2 != 1 || k2 != 0) {
		t.Errorf("two plans at once: %d+%d workers, %d+%d kept, %d descriptors", w, w2, k, k2, total)
	}
	release2()
	release()
	if reserved.Load() != 0 {
		t.Errorf("%d still reserved", reserved.Load())
	}
}
