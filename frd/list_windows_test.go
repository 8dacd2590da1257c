package frd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/sys/windows"
)

// TestWindowsMoreData lists with a buffer that holds a few records, so the
// listing meets ERROR_MORE_DATA and must list again without losing or
// repeating an entry: under Rewind, which knows where the scan began.
// Without it, the handle's position is not known, and the listing fails
// rather than list entries again (dirquery_test.go has the protocol).
func TestWindowsMoreData(t *testing.T) {
	dir := tempDir(t)
	for i := range 60 {
		writeFile(t, dir, fmt.Sprintf("file-with-a-longish-name-%03d.txt", i), i)
	}
	old := windowsBufSize
	windowsBufSize = 100 // less than one record: ERROR_MORE_DATA at once
	defer func() { windowsBufSize = old }()
	moreDataRestarts.Store(0)
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	var plain Lister
	if _, err := plain.AppendDir(nil, f); !errors.Is(err, windows.ERROR_MORE_DATA) {
		t.Errorf("without Rewind: %v, want ERROR_MORE_DATA", err)
	}
	l := Lister{Rewind: true}
	entries, err := l.AppendDir(nil, f)
	must(t, err)
	checkSameAsOS(t, dir, entries)
	if moreDataRestarts.Load() == 0 {
		t.Error("the listing never met ERROR_MORE_DATA: the test does not test it")
	}
	t.Logf("%d restarts after ERROR_MORE_DATA", moreDataRestarts.Load())
}

// TestWindowsRewindAndNames lists one handle twice under Rewind, full and
// names only.
func TestWindowsRewindAndNames(t *testing.T) {
	dir := tempDir(t)
	for i := range 20 {
		writeFile(t, dir, fmt.Sprintf("f%02d", i), i)
	}
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	l := Lister{Rewind: true}
	first, err := l.AppendDir(nil, f)
	must(t, err)
	second, err := l.AppendDir(nil, f)
	must(t, err)
	checkSameAsOS(t, dir, first)
	checkSameAsOS(t, dir, second)
	names := Lister{Rewind: true, Names: true}
	n, err := names.AppendDir(nil, f)
	must(t, err)
	SortByName(n)
	var got []string
	for _, e := range n {
		if e.Size != 0 || e.ModTimeNanos != 0 {
			t.Errorf("Names gave metadata: %+v", e)
		}
		got = append(got, e.Name)
	}
	want, _ := osListing(t, dir)
	if !slices.Equal(got, want) {
		t.Errorf("Names: %q, want %q", got, want)
	}
}

// TestWindowsStatSameAsListing fills a Names listing in with Lister.Stat:
// every entry, a regular file's metadata included, equals the full
// listing's.
func TestWindowsStatSameAsListing(t *testing.T) {
	dir := tempDir(t)
	for i := range 30 {
		writeFile(t, dir, fmt.Sprintf("f%02d", i), i*1000)
	}
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	full, err := (&Lister{Rewind: true}).AppendDir(nil, f)
	must(t, err)
	names, err := (&Lister{Rewind: true, Names: true}).AppendDir(nil, f)
	must(t, err)
	var l Lister
	stat, err := l.Stat(names, f.Fd(), dir)
	must(t, err)
	SortByName(full)
	SortByName(stat)
	if len(stat) != len(full) {
		t.Fatalf("Stat gave %d entries, the full listing %d", len(stat), len(full))
	}
	ids := map[uint64]string{} // Stat's ids that the listing lacks
	for i, want := range full {
		got := stat[i]
		if want.Type.IsRegular() && want.FileID == 0 && got.FileID != 0 {
			// The FULL class (as under Wine) has no id; FILE_ID_INFO does.
			if other, ok := ids[got.FileID]; ok {
				t.Errorf("%s and %s: one FileID %#x", other, got.Name, got.FileID)
			}
			ids[got.FileID] = got.Name
			got.FileID = 0
		}
		if got != want {
			t.Errorf("Stat:    %+v\nlisting: %+v", got, want)
		}
		if want.Type.IsRegular() && (want.ModTimeNanos == 0 || want.ChangeTimeNanos == 0) {
			t.Errorf("%s: the listing has no times: %+v", want.Name, want)
		}
	}
	if len(ids) > 0 {
		t.Logf("the listing had no FileID (the FULL class); Stat gave %d distinct ones", len(ids))
	}
	checkSameAsOS(t, dir, stat)
}
