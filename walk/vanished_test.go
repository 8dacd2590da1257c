package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// TestReportVanished removes files between a split directory's listing
// and its stats: under ReportVanished each is reported once, wrapping
// fs.ErrNotExist, and left out; without it, left out without a word.
func TestReportVanished(t *testing.T) {
	for _, report := range []bool{true, false} {
		for _, workers := range []int{2, 3} { // a split needs two
			root := t.TempDir()
			for i := range 30 {
				if err := os.WriteFile(filepath.Join(root, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			gone := []string{"f3", "f17", "f29"}
			testHookSplitListed = func(string) {
				for _, g := range gone {
					os.Remove(filepath.Join(root, g))
				}
			}
			var (
				mu       sync.Mutex
				reported []string
				listed   int
			)
			opts := &Options{Workers: workers, SplitDirSize: 1, ReportVanished: report, OnError: func(e *Error) error {
				if !errors.Is(e, fs.ErrNotExist) {
					t.Errorf("%s: %v", e.Path, e)
				}
				mu.Lock()
				reported = append(reported, filepath.Base(e.Path))
				mu.Unlock()
				return nil
			}}
			err := Dirs(t.Context(), root, opts, func(d *Dir) error {
				listed = len(d.Entries)
				return nil
			})
			testHookSplitListed = nil
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(reported)
			want := []string(nil)
			if report {
				want = []string{"f17", "f29", "f3"}
			}
			if !slices.Equal(reported, want) || listed != 27 {
				t.Errorf("ReportVanished %v, %d workers: reported %q, listed %d; want %q, 27", report, workers, reported, listed, want)
			}
		}
	}
}
