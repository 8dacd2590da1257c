package dirfd

import (
	"os"
	"path/filepath"
	"sync"
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

// borrowDescriptor makes descriptor std (0 or 1) a duplicate of fd, or
// closes it when fd is -1, until restore (called at the test's end too):
// the code treats descriptors 0 and 1 as any other, so a test may need
// them to be a directory, or to be the next one an open returns. No test
// output may be written while descriptor 1 is borrowed, and no test may
// run in parallel with one that borrows.
func borrowDescriptor(t *testing.T, std, fd int) (restore func()) {
	t.Helper()
	saved, err := unix.Dup(std)
	if err == unix.EBADF {
		saved = -1 // std was closed: so it is left
	} else if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	restore = func() {
		once.Do(func() {
			if saved < 0 {
				unix.Close(std)
				return
			}
			unix.Dup2(saved, std)
			unix.Close(saved)
		})
	}
	t.Cleanup(restore)
	if fd < 0 {
		unix.Close(std)
	} else if err := unix.Dup2(fd, std); err != nil {
		restore()
		t.Fatal(err)
	}
	return restore
}

// TestMovedUpAtDescriptorZero: descriptor 0 is a descriptor like any
// other, as a directory's own and as its parent opened through "..": with
// the way down by names cut, each still finds the parent.
func TestMovedUpAtDescriptorZero(t *testing.T) {
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
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "cut")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "d", "d", "d")

	// The directory's own descriptor is 0.
	restore := borrowDescriptor(t, 0, self)
	moved, up := n.MovedUp(0, path, n.dev, n.ino, p.dev, p.ino)
	found := up >= 0 && isDir(t, up, p)
	Close(up)
	restore()
	if moved || !found {
		t.Errorf("its own descriptor 0: moved %v, parent %d", moved, up)
	}

	// Its parent, opened through "..", gets descriptor 0.
	restore = borrowDescriptor(t, 0, -1)
	moved, up = n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino)
	found = up == 0 && isDir(t, up, p)
	Close(up)
	restore()
	if moved || !found {
		t.Errorf("the parent at descriptor 0: moved %v, parent %d", moved, up)
	}
}

// TestOpenNearParentAtDescriptorZero: a directory found from below
// through "..", at descriptor 0, is used like any other, though the way
// down from the root is cut: from one level below, the parent is 0 and is
// kept as 0; from two below, the step between is 0 and is climbed on from.
func TestOpenNearParentAtDescriptorZero(t *testing.T) {
	s := NewEvictingSet(4)
	defer s.CloseAll()
	root, nodes := chain(t, s, 5)
	p := nodes[3] // three levels below the root: climbed to from two below
	sib := filepath.Join(root, "d", "d", "d", "sib")
	if err := os.Mkdir(sib, 0o755); err != nil {
		t.Fatal(err)
	}
	identifyAll(t, root, nodes)
	var fds [2]int // one and two levels below p
	for i := range fds {
		var err error
		if fds[i], err = nodes[4+i].Open(root); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "cut")); err != nil {
		t.Fatal(err)
	}
	for i, fd := range fds {
		below, from := i+1, nodes[4+i]
		s.Keep(from, fd, false)
		restore := borrowDescriptor(t, 0, -1)
		fd, err := s.OpenNear(&Node{Parent: p, Name: "sib"}, sib)
		Close(fd)
		kept := p.Fd()
		Close(s.Take(p))
		restore()
		if err != nil || kept < 0 || below == 1 && kept != 0 {
			t.Errorf("OpenNear from %d below, descriptor 0 free: %v, parent kept as %d", below, err, kept)
		}
		Close(s.Take(from))
	}
}

// TestMovedTakesNoOtherDescriptor: Moved, given no descriptor of the
// directory's own, finds the parent by names only; with that way cut above
// the parent it cannot tell, and reports no move, though descriptor 1 is
// the directory itself, renamed, whose ".." would have found the parent.
func TestMovedTakesNoOtherDescriptor(t *testing.T) {
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
	dd := filepath.Join(root, "d", "d")
	if err := os.Rename(filepath.Join(dd, "d"), filepath.Join(dd, "e")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dd, "d")
	// From its own descriptor's "..", the move is seen.
	if moved, up := n.MovedUp(self, path, n.dev, n.ino, p.dev, p.ino); !moved {
		t.Fatalf("renamed, from its own descriptor: not moved (parent %d)", up)
	} else {
		Close(up)
	}
	if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "cut")); err != nil {
		t.Fatal(err)
	}
	restore := borrowDescriptor(t, 1, self)
	moved := n.Moved(path, n.dev, n.ino, p.dev, p.ino)
	restore()
	if moved {
		t.Error("Moved, with no descriptor given and the names cut, found the parent")
	}
}

// memTempDir is a temporary directory in memory (/dev/shm) where there is
// one, else t.TempDir: thousands of mkdirs on a disk's file system take
// seconds on a busy machine, in memory a tenth of one.
func memTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "dirfd-test-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	})
	return dir
}

// TestOpenNearReach: the parent of the directory to open is climbed to
// from a kept directory 1,023 levels below it, not from one 1,024 below,
// the reach; the directory is then opened from the root, above, and the
// parent is not kept. The chain, 2,049 levels of "d", is longer than
// PATH_MAX, so it is made and identified by descriptor.
func TestOpenNearReach(t *testing.T) {
	const parent = nearReach + 1 // more than the reach below the root
	s := NewSet(4)
	defer s.CloseAll()
	root := memTempDir(t)
	fd, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	nodes := []*Node{{}}
	s.Keep(nodes[0], fd, true)
	fd, err = unix.Dup(fd)
	if err != nil {
		t.Fatal(err)
	}
	far := map[int]int{} // depth: a descriptor kept for the test
	for i := 1; i <= parent+nearReach; i++ {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := openAt(fd, "d", false)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
		st, err := Fstat(fd)
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, &Node{Parent: nodes[i-1], Name: "d"})
		nodes[i].Identify(st.Device, st.FileID)
		if i >= parent+nearReach-1 {
			if far[i], err = unix.Dup(fd); err != nil {
				t.Fatal(err)
			}
		}
	}
	unix.Close(fd)
	p, n := nodes[parent], nodes[parent+1]

	s.Keep(nodes[parent+nearReach], far[parent+nearReach], false)
	fd, err = s.OpenNear(n, "deep")
	if err != nil || !isDir(t, fd, n) {
		t.Errorf("OpenNear past the reach: %d, %v", fd, err)
	}
	Close(fd)
	if p.Kept() {
		t.Errorf("the parent was found from %d levels below it", nearReach)
	}
	unix.Close(s.Take(nodes[parent+nearReach]))

	s.Keep(nodes[parent+nearReach-1], far[parent+nearReach-1], false)
	fd, err = s.OpenNear(n, "deep")
	if err != nil || !isDir(t, fd, n) {
		t.Errorf("OpenNear within the reach: %d, %v", fd, err)
	}
	Close(fd)
	if !p.Kept() {
		t.Errorf("the parent was not found from %d levels below it", nearReach-1)
	}
}
