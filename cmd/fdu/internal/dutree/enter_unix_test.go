//go:build unix

package dutree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestEnterTheDirectoryScanned: Enter makes the directory scanned the
// working directory, and back returns; a directory exchanged for a link
// to another since the scan is refused, and the working directory stays.
func TestEnterTheDirectoryScanned(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"junk", "private"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(1)})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := os.Getwd()
	back, err := tr.Enter([]string{"junk"}, filepath.Join(root, "junk"))
	if err != nil {
		t.Fatal(err)
	}
	if wd, _ := os.Getwd(); wd != filepath.Join(root, "junk") {
		t.Errorf("entered %s", wd)
	}
	if err := back(); err != nil {
		t.Fatal(err)
	}
	if wd, _ := os.Getwd(); wd != start {
		t.Errorf("back in %s, not %s", wd, start)
	}
	junk := filepath.Join(root, "junk")
	if err := os.Rename(junk, filepath.Join(root, "gone")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("private", junk); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Enter([]string{"junk"}, junk); !errors.Is(err, ErrChanged) {
		t.Errorf("entering a directory swapped for a link: %v, want ErrChanged", err)
	}
	if wd, _ := os.Getwd(); wd != start {
		t.Errorf("a refused Enter moved to %s", wd)
	}
}
