package walk

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestDirsFileWalksTheOpenDirectory: DirsFile walks the directory it is
// given open, though its path now names another, names it by the file's
// name, reads from its start whatever the caller read, and leaves the
// caller's descriptor open and no other.
func TestDirsFileWalksTheOpenDirectory(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	for _, f := range []string{"a", "sub/b"} {
		must(t, os.WriteFile(filepath.Join(root, f), nil, 0o644))
	}
	f, err := os.Open(root)
	must(t, err)
	defer f.Close()
	if _, err := f.Readdirnames(1); err != nil { // the caller's offset moves
		t.Fatal(err)
	}
	must(t, os.Rename(root, filepath.Join(base, "moved")))
	must(t, os.Mkdir(root, 0o755)) // an empty impostor under the path
	before := openFDs(t)
	var mu sync.Mutex
	var got []string
	err = DirsFile(context.Background(), f, &Options{Workers: 2}, func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range d.Entries {
			got = append(got, filepath.Join(d.Path, e.Name))
		}
		return nil
	})
	must(t, err)
	want := map[string]bool{filepath.Join(root, "a"): true, filepath.Join(root, "sub"): true, filepath.Join(root, "sub", "b"): true}
	if len(got) != len(want) {
		t.Fatalf("walked %q, want %d entries of the open directory", got, len(want))
	}
	for _, p := range got {
		if !want[p] {
			t.Errorf("walked %s, not an entry of the open directory", p)
		}
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after the walk, %d before", after, before)
	}
	if _, err := f.Stat(); err != nil {
		t.Errorf("the caller's directory was closed: %v", err)
	}
}
