package walk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestNamesNeverStats: a names-only walk leaves every file's metadata
// zero, past a directory large enough to be split across the workers and
// in the directories after it (the split once stat'ed its files, and left
// the worker's Lister stating for good).
func TestNamesNeverStats(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"big", "a", "b", "c"} {
		must(t, os.Mkdir(filepath.Join(root, d), 0o755))
	}
	for i := range 2000 {
		must(t, os.WriteFile(filepath.Join(root, "big", fmt.Sprintf("file-with-a-long-name-%05d", i)), []byte("x"), 0o644))
	}
	for _, d := range []string{"a", "b", "c"} {
		for i := range 20 {
			must(t, os.WriteFile(filepath.Join(root, d, fmt.Sprint(i)), []byte("xyz"), 0o644))
		}
	}
	for _, workers := range []int{1, 2, 4} {
		var files, stated atomic.Int64
		err := Dirs(context.Background(), root, &Options{Names: true, Workers: workers}, func(d *Dir) error {
			for _, e := range d.Entries {
				if e.Type.IsRegular() {
					files.Add(1)
					if e.Size != 0 || e.ModTimeNanos != 0 || e.FileID != 0 {
						stated.Add(1)
					}
				}
			}
			return nil
		})
		must(t, err)
		if files.Load() != 2060 || stated.Load() != 0 {
			t.Errorf("%d workers: %d files, %d of them with metadata; want 2060 and none", workers, files.Load(), stated.Load())
		}
	}
}
