package du

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestScanDerefListsEachDirOnce: under -L, 40 links to one directory
// tree and a link back to their parent: du descends the tree once, and
// the scan must list each directory once too, not list the tree 41 times
// and leave the report to drop the repeats.
func TestScanDerefListsEachDirOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "t", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t", "a", "f"), make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "links"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if err := os.Symlink("../t", filepath.Join(dir, "links", fmt.Sprint("l", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../links", filepath.Join(dir, "t", "back")); err != nil {
		t.Fatal(err)
	}
	s := NewScanner(&Config{Deref: DerefAll, HashAll: true, Jobs: 4}, nil)
	if _, err := s.Scan(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	// ., t, t/a, links: each once.
	if got := s.listed.Load(); got != 4 {
		t.Errorf("-L listed %d directories, want 4", got)
	}
}
