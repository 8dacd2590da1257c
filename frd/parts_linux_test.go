package frd

import (
	"fmt"
	"os"
	"testing"
)

// TestAppendPartEnds: the first part of a listing larger than a buffer
// holds entries and is not done, and the last is found done; each part is
// appended to those before it, and every part's files are stat'ed, the
// first's and the last's as the others'.
func TestAppendPartEnds(t *testing.T) {
	dir := tempDir(t)
	for i := range 3000 {
		writeFile(t, dir, fmt.Sprintf("file-%05d", i), 1+i%5)
	}
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	var l Lister
	var all []Entry
	var ends []int // where each part that added entries ends in all
	for done := false; !done; {
		all, done, err = l.AppendPart(all, f.Fd(), dir)
		must(t, err)
		if len(ends) == 0 && done {
			t.Fatal("the first part is done: 3,000 entries in one buffer")
		}
		if len(ends) == 0 || len(all) > ends[len(ends)-1] {
			ends = append(ends, len(all))
		}
		if len(ends) > 1000 {
			t.Fatal("never done")
		}
	}
	if ends[0] == 0 || ends[0] > partMax || len(ends) < 2 {
		t.Errorf("parts ending at %v: want more than one, the first of 1 to %d entries", ends, partMax)
	}
	for _, e := range all {
		var i int
		if _, err := fmt.Sscanf(e.Name, "file-%05d", &i); err != nil || e.Size != int64(1+i%5) {
			t.Errorf("parts ending at %v: %s has size %d, want %d", ends, e.Name, e.Size, 1+i%5)
		}
	}
	checkSameAsOS(t, dir, all)
}
