package dutree

import (
	"math"
	"testing"
)

// TestPackedEntriesKeepTheirFields: what a directory's packed entries give
// back is what went in, at the ends of every field's range, in order.
func TestPackedEntriesKeepTheirFields(t *testing.T) {
	sub := NewDir(9, Node{Name: "in", Asize: 1, Dsize: 512, Ino: 2, Nlink: 1})
	kids := []Node{
		{Name: "", Nlink: 1},
		{Name: "max", Asize: math.MaxInt64, Dsize: math.MaxInt64, Ino: math.MaxUint64, Mtime: math.MaxInt64, Nlink: math.MaxUint32, Flags: HardLink},
		{Name: "min", Mtime: math.MinInt64 / 2, Ino: 1, Nlink: 0, Flags: HardLink | LinkSeen},
		{Name: "odd", Dsize: 513, Asize: 3, Ino: 1 << 40, Mtime: -1, Nlink: 1, Flags: ReadError | Symlink | NotReg},
		{Name: "dir\xff", Dir: sub, Asize: 4096, Dsize: 8192, Ino: 77, Mtime: 1700000000, Nlink: 3, Flags: ErrorBelow},
		{Name: string(make([]byte, 300)), Dsize: 4096, Ino: 5, Mtime: 1700000000, Nlink: 2, Flags: Excluded | wasDir},
	}
	d := NewDir(1, kids...)
	got := d.Entries()
	if len(got) != len(kids) || d.Len() != len(kids) {
		t.Fatalf("%d entries, want %d", len(got), len(kids))
	}
	for i, k := range got {
		w := kids[i]
		k.in, k.at = nil, 0
		if k != w {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, k, w)
		}
	}
}

// TestSetFlagsWritesBack: a flag set on an entry read is there when it is
// read again, and its other fields are not touched.
func TestSetFlagsWritesBack(t *testing.T) {
	sub := NewDir(0)
	d := NewDir(0, Node{Name: "a", Asize: 300, Ino: 1 << 33, Nlink: 7, Flags: HardLink}, Node{Name: "s", Dir: sub}, Node{Name: "b", Asize: 5, Nlink: 1})
	for _, k := range d.Entries() {
		k.SetFlags(k.Flags | LinkSeen)
	}
	for _, k := range d.Entries() {
		if k.Flags&LinkSeen == 0 {
			t.Errorf("%s: flags %b", k.Name, k.Flags)
		}
	}
	if a := d.Lookup("a"); a.Asize != 300 || a.Ino != 1<<33 || a.Nlink != 7 || a.Flags != HardLink|LinkSeen {
		t.Errorf("a: %+v", a)
	}
	if !d.Remove("s") || d.Lookup("s") != nil || d.Lookup("b").Asize != 5 || d.Len() != 2 {
		t.Errorf("after Remove: %+v", d.Entries())
	}
}
