package dutree

import "testing"

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
