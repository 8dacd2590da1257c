package walk

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestSkippedTellsOfAVanishedDirectory: a subdirectory removed between
// its parent's listing and its visit is left out without an error, so
// Skipped is all that tells a caller waiting for it that it will not
// come; a subdirectory visited is not passed to it.
func TestSkippedTellsOfAVanishedDirectory(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"gone", "kept"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var skipped, visited []string
	o := &Options{Workers: 2, Skipped: func(d *Dir) {
		mu.Lock()
		skipped = append(skipped, d.Path)
		mu.Unlock()
	}}
	err := Dirs(t.Context(), root, o, func(d *Dir) error {
		mu.Lock()
		visited = append(visited, d.Path)
		mu.Unlock()
		if d.Depth == 0 { // listed: now it vanishes
			return os.Remove(filepath.Join(root, "gone"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(visited)
	if want := []string{root, filepath.Join(root, "kept")}; !slices.Equal(visited, want) {
		t.Errorf("visited %q, want %q", visited, want)
	}
	if want := []string{filepath.Join(root, "gone")}; !slices.Equal(skipped, want) {
		t.Errorf("Skipped called for %q, want %q", skipped, want)
	}
}
