package frd

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
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

// TestAppendPartHalfBuffer: a read that fills the buffer up to half is not
// full, so the part goes on to the directory's end: a directory whose
// records take exactly half the buffer is one part, found done; with one
// entry more, its first read is full and the part ends there, not done.
//
// The kernel ends a getdents64 call early when a signal is pending, and the
// Go runtime signals its threads to preempt goroutines. A try whose first
// read was cut short tells nothing, so only a try whose first read held
// the whole directory is judged; one is tried again up to 20 times.
func TestAppendPartHalfBuffer(t *testing.T) {
	// A record is its 19-byte header, the name and a NUL, rounded up to
	// 8 bytes: "." and ".." take 24 each, a name of 252 bytes 272, one of
	// 60 bytes 80, so that 48 + 120*272 + 80 is 32768, half of bufSize.
	if bufSize != 64<<10 {
		t.Fatalf("bufSize %d: the names below fill half of 64 KiB", bufSize)
	}
	for _, extra := range []bool{false, true} {
		dir := tempDir(t)
		for i := range 120 {
			writeFile(t, dir, fmt.Sprintf("%03d%s", i, strings.Repeat("n", 249)), 1)
		}
		writeFile(t, dir, strings.Repeat("s", 60), 1)
		want := 121
		if extra {
			writeFile(t, dir, "x", 1)
			want++
		}
		judged := false
		for range 20 {
			n, done, whole := firstPart(t, dir, want)
			if !whole {
				continue // a signal cut the first read short
			}
			judged = true
			if n != want || done == extra {
				t.Errorf("one entry more %v: the first part had %d entries, done %v; want %d, done %v", extra, n, done, want, !extra)
			}
			break
		}
		if !judged {
			t.Errorf("one entry more %v: no first read of 20 held the whole directory", extra)
		}
	}
}

// firstPart lists the first part of dir and says how many entries it held,
// whether it was found done, and whether its first read held all entries.
func firstPart(t *testing.T, dir string, entries int) (n int, done, whole bool) {
	t.Helper()
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	var l Lister
	reads := 0
	testHookAfterRead = func() {
		if reads++; reads == 1 {
			whole = len(l.sys.recs) == entries
		}
	}
	defer func() { testHookAfterRead = nil }()
	part, done, err := l.AppendPart(nil, f.Fd(), dir)
	must(t, err)
	return len(part), done, whole
}

// TestAppendPartCountsItsOwn: a part's bound of entries counts what the
// call appended, not what dst held before it, so a small directory is one
// part, found done, after any number of entries from other listings.
func TestAppendPartCountsItsOwn(t *testing.T) {
	dir := tempDir(t)
	for i := range 10 {
		writeFile(t, dir, fmt.Sprintf("f%d", i), i)
	}
	for _, held := range []int{0, 1, partMax - 1, partMax, partMax + 1, 3 * partMax} {
		f, err := os.Open(dir)
		must(t, err)
		var l Lister
		all, done, err := l.AppendPart(make([]Entry, held), f.Fd(), dir)
		f.Close()
		must(t, err)
		if !done || len(all) != held+10 {
			t.Errorf("after %d entries: %d appended, done %v; want 10, done", held, len(all)-held, done)
		}
	}
}

// TestAppendPartNotEmptyUntilDone: a read that fills the buffer with files
// all removed before their stats adds nothing, and the part reads on: a
// part that is not done holds an entry.
func TestAppendPartNotEmptyUntilDone(t *testing.T) {
	// 130 records of 264 bytes, a name of 240 and the header: more than
	// half the buffer, so the first read is full.
	dir := tempDir(t)
	for i := range 130 {
		writeFile(t, dir, fmt.Sprintf("%03d%s", i, strings.Repeat("f", 237)), 1)
	}
	reads := 0
	testHookAfterRead = func() {
		if reads++; reads == 1 {
			names, err := os.ReadDir(dir)
			must(t, err)
			for _, n := range names {
				must(t, os.Remove(dir+"/"+n.Name()))
			}
		}
	}
	defer func() { testHookAfterRead = nil }()
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	var l Lister
	part, done, err := l.AppendPart(nil, f.Fd(), dir)
	must(t, err)
	if len(part) != 0 || !done {
		t.Errorf("every file removed after the first read: %d entries, done %v", len(part), done)
	}
}

// TestAppendPartPaged: on a file system that answers a few entries per
// read (FUSE), a part is the reads up to partMax entries of its own,
// exactly that many where a read ends there, and the last part is the
// rest, found done; each part appended to those before it.
func TestAppendPartPaged(t *testing.T) {
	names := make([]string, 2*partMax+100)
	for i := range names {
		names[i] = fmt.Sprintf("file-%05d", i)
	}
	dir := testfs.PagedDir(t, names, 64) // 64 divides partMax
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	var l Lister
	var all []Entry
	var sizes []int
	for done := false; !done; {
		n := len(all)
		all, done, err = l.AppendPart(all, f.Fd(), dir)
		must(t, err)
		if sizes = append(sizes, len(all)-n); len(sizes) > 10 {
			t.Fatal("never done")
		}
	}
	if !slices.Equal(sizes, []int{partMax, partMax, 100}) {
		t.Errorf("parts of %v entries, want %d, %d, 100", sizes, partMax, partMax)
	}
	for i, e := range all {
		if e.Name != names[i] || e.Size != int64(len(names[i])) || e.Type != 0 {
			t.Fatalf("entry %d: %q size %d type %v, want %q size %d", i, e.Name, e.Size, e.Type, names[i], len(names[i]))
		}
	}
}
