package synthfs

import (
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// TestTreeIsItsShape: the laid-out tree has the shape's entries, each
// found again by its name in its directory and placed by its inode.
func TestTreeIsItsShape(t *testing.T) {
	s := treegen.Shape{Levels: 3, Fanout: []int{3, 2, 0}, Files: []int{1, 0, 4}, MaxSize: 100}
	tr := New(s)
	// 3 + 6 directories; 1 file at the root, 4 in each of the 6 leaves.
	if got := tr.Entries(); got != 9+1+24 {
		t.Fatalf("%d entries", got)
	}
	seen := map[uint64]bool{1: true}
	var walk func(ino uint64)
	walk = func(ino uint64) {
		n, ok := tr.locate(ino)
		if !ok || !n.dir {
			t.Fatalf("%d: not a directory", ino)
		}
		for k := range tr.count(n) {
			child, name := tr.child(n, k)
			if seen[child] {
				t.Fatalf("inode %d twice", child)
			}
			seen[child] = true
			if got, ok := tr.lookup(n, name); !ok || got != child {
				t.Errorf("%q: looked up as %d, %v; listed as %d", name, got, ok, child)
			}
			if c, ok := tr.locate(child); !ok {
				t.Errorf("%d not placed", child)
			} else if c.dir {
				walk(child)
			} else if tr.size(child) > 100 {
				t.Errorf("%d: size %d", child, tr.size(child))
			}
		}
	}
	walk(1)
	if uint64(len(seen)) != tr.end-1 {
		t.Errorf("%d inodes reached of %d", len(seen), tr.end-1)
	}
}

func TestScaledEntries(t *testing.T) {
	for n, levels := range map[uint64]int{1e6: 4, 1e7: 5, 1e8: 6} {
		s := Scaled(n, 512)
		if got := New(s).Entries(); s.Levels != levels || got < n || got > n+n/50 {
			t.Errorf("%d: %d levels, %d entries", n, s.Levels, got)
		}
	}
}

// FuzzLookup: any name looks up as nothing or as the entry listed so.
func FuzzLookup(f *testing.F) {
	tr := New(Scaled(1e6, 512))
	for _, s := range []string{"d001", "f00000-f042.c", "d", "f", "d-1", "f99999-0.go", "d0010"} {
		f.Add(uint64(1), s)
	}
	f.Fuzz(func(t *testing.T, ino uint64, name string) {
		n, ok := tr.locate(ino)
		if !ok || !n.dir {
			return
		}
		if child, ok := tr.lookup(n, name); ok {
			if _, listed := tr.child(n, int(child-childBase(tr, n, name))); listed != name {
				t.Errorf("%q found as %d, listed as %q", name, child, listed)
			}
		}
	})
}

// childBase is the inode of the first entry of n of name's kind.
func childBase(tr *Tree, n node, name string) uint64 {
	if name[0] == 'd' {
		return tr.dirBase[n.level+1] + n.index*uint64(tr.fanout(n.level)) - uint64(tr.files(n.level))
	}
	return tr.fileBase[n.level] + n.index*uint64(tr.files(n.level))
}
