package dutree

import (
	"testing"

	"github.com/pbednarcik/flexreaddir/frd"
)

// TestSameAsScannedDecides: the rule that tells the entry scanned from a
// file made since with its inode number, with a birth time and without.
func TestSameAsScannedDecides(t *testing.T) {
	const scanned = 1_000_000_000_000 // ns
	for _, c := range []struct {
		name  string
		t     times
		exact bool
		ours  int64
		want  bool
	}{
		{"born before", times{btime: scanned - 1, hasBtime: true, ctime: scanned + 5}, true, 0, true},
		{"born at the scan's tick", times{btime: scanned, hasBtime: true}, true, 0, false},
		{"born after", times{btime: scanned + 1, hasBtime: true}, true, 0, false},
		{"born after, changed by us: the birth time decides", times{btime: scanned + 1, hasBtime: true, ctime: scanned + 1}, true, scanned + 9, false},
		{"no birth time, changed before", times{ctime: scanned - 1}, true, 0, true},
		{"no birth time, changed at the tick", times{ctime: scanned}, true, 0, false},
		{"no birth time, changed after", times{ctime: scanned + 1}, true, 0, false},
		{"no birth time, changed by our own deletion", times{ctime: scanned + 3}, true, scanned + 3, true},
		{"no birth time, changed after our own deletion", times{ctime: scanned + 4}, true, scanned + 3, false},
		{"truncated times, born 1 s before", times{btime: scanned - 1e9, hasBtime: true}, false, 0, false},
		{"truncated times, born 3 s before", times{btime: scanned - 3e9, hasBtime: true}, false, 0, true},
		{"truncated times, no birth time, changed 1 s before", times{ctime: scanned - 1e9}, false, 0, false},
		{"truncated times, no birth time, changed 3 s before", times{ctime: scanned - 3e9}, false, 0, true},
		{"inexact times, born again by our own deletion", times{btime: scanned + 3, hasBtime: true}, false, scanned + 3, true},
		{"inexact times, born after our own deletion", times{btime: scanned + 4, hasBtime: true}, false, scanned + 3, false},
	} {
		if got := sameAsScanned(c.t, scanned, c.exact, c.ours); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestExcludedBelowCounts: excluded files and excluded directories are
// counted apart, at every depth.
func TestExcludedBelowCounts(t *testing.T) {
	n := Node{Name: "d", Dir: NewDir(0,
		Node{Name: "a.keep", Ino: 3, Flags: Excluded},
		Node{Name: "sub", Dir: NewDir(0, Node{Name: "b.keep", Ino: 4, Flags: Excluded}, Node{Name: "x", Ino: 5})},
		Node{Name: "node_modules", Ino: 6, Flags: Excluded | wasDir},
	)}
	if f, d := n.ExcludedBelow(); f != 2 || d != 1 {
		t.Errorf("%d files and %d directories, want 2 and 1", f, d)
	}
}

// TestLowerLinks: a file whose links were deleted loses them, down to
// one, which is no hard link; a hard link none of whose links went keeps
// its count and mark, even one whose count is unknown (0) or 1, as an
// ncdu 1 export's hlnkc files, which carry no nlink, read.
func TestLowerLinks(t *testing.T) {
	d := &Dir{Dev: 7}
	d.set([]Node{
		{Name: "two", Ino: 2, Nlink: 2, Flags: HardLink},
		{Name: "three", Ino: 3, Nlink: 3, Flags: HardLink},
		{Name: "four", Ino: 4, Nlink: 4, Flags: HardLink},
		{Name: "unknown", Ino: 5, Flags: HardLink},
		{Name: "one", Ino: 6, Nlink: 1, Flags: HardLink},
		{Name: "plain", Ino: 8, Nlink: 1},
	})
	lowerLinks(d, map[frd.ID]uint32{
		{Dev: 7, Ino: 2}: 1, {Dev: 7, Ino: 3}: 1, {Dev: 7, Ino: 4}: 9, {Dev: 7, Ino: 8}: 1,
		{Dev: 9, Ino: 5}: 1, // another device's
	})
	want := map[string]Node{
		"two":     {Nlink: 1},
		"three":   {Nlink: 2, Flags: HardLink},
		"four":    {Nlink: 1},
		"unknown": {Flags: HardLink},
		"one":     {Nlink: 1, Flags: HardLink},
		"plain":   {Nlink: 1},
	}
	for _, k := range d.Entries() {
		if got := (Node{Nlink: k.Nlink, Flags: k.Flags}); got != want[k.Name] {
			t.Errorf("%s: %d links, flags %b; want %d, %b", k.Name, k.Nlink, k.Flags, want[k.Name].Nlink, want[k.Name].Flags)
		}
	}
}
