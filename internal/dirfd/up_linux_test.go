package dirfd

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// identifyAll opens each node below the root once, from the root, and
// records what it found.
func identifyAll(t *testing.T, root string, nodes []*Node) {
	t.Helper()
	for _, n := range nodes[1:] {
		fd, err := n.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Fstat(fd)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		n.Identify(st.Device, st.FileID)
	}
}

// isDir reports whether fd is the directory n was identified as.
func isDir(t *testing.T, fd int, n *Node) bool {
	t.Helper()
	st, err := Fstat(fd)
	return err == nil && st.Device == n.dev && st.FileID == n.ino
}

// TestUpChecksWhereItLands: ".." of a directory is its parent, when the
// identity given is the parent's; anything else gives -1, and leaves no
// descriptor open.
func TestUpChecksWhereItLands(t *testing.T) {
	s := NewSet(0)
	root, nodes := chain(t, s, 3)
	defer s.CloseAll()
	identifyAll(t, root, nodes)
	fd, err := nodes[3].Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	before := openFDs(t)
	up := Up(fd, nodes[2].dev, nodes[2].ino)
	if up < 0 || !isDir(t, up, nodes[2]) {
		t.Fatalf("Up from d/d/d: %d, not d/d", up)
	}
	unix.Close(up)
	for _, wrong := range []*Node{nodes[1], nodes[3]} {
		if up := Up(fd, wrong.dev, wrong.ino); up >= 0 {
			unix.Close(up)
			t.Errorf("Up landed on d/d and took it for another directory")
		}
	}
	if up := Up(-1, nodes[2].dev, nodes[2].ino); up >= 0 {
		t.Errorf("Up from no directory: %d", up)
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after, %d before", after, before)
	}
}

// TestOpenNearGoesUpFromBelow: with a directory kept a level below the
// parent of the one to open, and none kept above but the root, two levels
// up, the parent is found through "..": the way down from the root is cut
// (its first directory renamed) and the open still works, and keeps the
// parent. A kept directory that is not below the parent, or one as far
// down as the way from above is long, is not used.
func TestOpenNearGoesUpFromBelow(t *testing.T) {
	s := NewEvictingSet(4)
	defer s.CloseAll()
	root, nodes := chain(t, s, 5)
	sib := filepath.Join(root, "d", "d", "sib")
	if err := os.Mkdir(sib, 0o755); err != nil {
		t.Fatal(err)
	}
	identifyAll(t, root, nodes)
	sibling := &Node{Parent: nodes[2], Name: "sib"}
	fd, err := nodes[3].Open(root)
	if err != nil {
		t.Fatal(err)
	}
	s.Keep(nodes[3], fd, false)
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	if nodes[2].Kept() {
		t.Fatal("d/d kept before the open")
	}
	before := openFDs(t)
	fd, err = s.OpenNear(sibling, sib)
	if err != nil {
		t.Fatalf("OpenNear from below: %v", err)
	}
	unix.Close(fd)
	if !nodes[2].Kept() {
		t.Error("the parent found from below was not kept")
	}
	if got := openFDs(t) - before; got != 1 {
		t.Errorf("%d more descriptors open, want 1 (the parent, kept)", got)
	}
	// Nothing near: the way from above, cut, fails as Open does.
	other := &Node{Parent: nodes[1], Name: "other"}
	if fd, err := s.OpenNear(other, "other"); err == nil {
		unix.Close(fd)
		t.Error("OpenNear found a directory through a cut path")
	}
	// The parent kept: one openat from it.
	if fd, err := s.OpenNear(sibling, sib); err != nil {
		t.Errorf("OpenNear from the kept parent: %v", err)
	} else {
		unix.Close(fd)
	}
	// A kept one as far down as allowed is not climbed from.
	if got := s.upToFrom(nodes[1], 1); got >= 0 {
		unix.Close(got)
		t.Error("climbed from d/d to d with no level allowed")
	}
	if got := s.upToFrom(nodes[1], 2); got < 0 || !isDir(t, got, nodes[1]) {
		t.Errorf("upToFrom d, from d/d (kept): %d", got)
	} else {
		unix.Close(got)
	}
}

// TestMovedUp: a directory checked from its own descriptor finds its
// parent through "..", says whether it is still under its name there, and
// hands the parent's descriptor on; one whose ".." is another directory
// is checked from its parent found by names instead.
func TestMovedUp(t *testing.T) {
	s := NewSet(0)
	root, nodes := chain(t, s, 3)
	defer s.CloseAll()
	identifyAll(t, root, nodes)
	n, p := nodes[3], nodes[2]
	self, err := n.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(self)
	path := filepath.Join(root, "d", "d", "d")
	moved, up := n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino)
	if moved || up < 0 || !isDir(t, up, p) {
		t.Errorf("in place: moved %v, parent %d", moved, up)
	}
	Close(up)
	// Renamed within its parent: moved, and the parent handed on.
	dd := filepath.Join(root, "d", "d")
	if err := os.Rename(filepath.Join(dd, "d"), filepath.Join(dd, "e")); err != nil {
		t.Fatal(err)
	}
	moved, up = n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino)
	if !moved || up < 0 {
		t.Errorf("renamed: moved %v, parent %d", moved, up)
	}
	Close(up)
	// Its own descriptor no help (another directory's): by names.
	if err := os.Rename(filepath.Join(dd, "e"), filepath.Join(dd, "d")); err != nil {
		t.Fatal(err)
	}
	if moved, up = n.MovedUp(int(nodes[0].Fd()), path, n.dev, n.ino, p.dev, p.ino); moved || up < 0 || !isDir(t, up, p) {
		t.Errorf("from another directory: moved %v, parent %d", moved, up)
	}
	Close(up)
	if n.Moved(path, n.dev, n.ino, p.dev, p.ino) {
		t.Error("Moved: in place, reported moved")
	}
	// Another directory under its name: moved.
	if err := os.Rename(filepath.Join(dd, "d"), filepath.Join(dd, "e")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dd, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if moved, up = n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino); !moved || up < 0 {
		t.Errorf("replaced: moved %v, parent %d", moved, up)
	}
	Close(up)
	if err := os.Remove(filepath.Join(dd, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dd, "e"), filepath.Join(dd, "d")); err != nil {
		t.Fatal(err)
	}
	// The way down by names cut above the parent: ".." still finds it.
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "cut")); err != nil {
		t.Fatal(err)
	}
	if moved, up = n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino); moved || up < 0 || !isDir(t, up, p) {
		t.Errorf("names cut above: moved %v, parent %d", moved, up)
	}
	Close(up)
	if moved, up = n.MovedUp(-1, path, n.dev, n.ino, p.dev, p.ino); moved || up != -1 {
		t.Errorf("names cut above, no descriptor of its own: moved %v, parent %d", moved, up)
	}
	// The parent kept: checked from it, no descriptor to hand on.
	if _, err := p.Open(filepath.Join(root, "cut", "d")); err == nil {
		t.Fatal("the way down, cut, opened the parent")
	}
	pfd, err := unix.Open(filepath.Join(root, "cut", "d"), unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Keep(p, pfd, true)
	if moved, up = n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino); moved || up != -1 {
		t.Errorf("parent kept: moved %v, parent %d", moved, up)
	}
	if err := os.Rename(filepath.Join(root, "cut", "d", "d"), filepath.Join(root, "cut", "d", "e")); err != nil {
		t.Fatal(err)
	}
	if moved, up = n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino); !moved || up != -1 {
		t.Errorf("parent kept, renamed: moved %v, parent %d", moved, up)
	}
}
