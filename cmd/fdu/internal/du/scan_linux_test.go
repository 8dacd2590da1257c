package du

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
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

// TestScanDerefDeepChainKeepsNoPaths: -L (and more than one argument)
// counts each directory once, by device and inode; what it keeps of each
// to name where it was walked must not be its path, which for a chain
// 600 levels deep of 255-byte names is 46 MB, and for 3,000 levels
// 1.2 GB. The path is built, from names, for a directory met again: here
// the chain's tenth level, through a link beside the chain.
func TestScanDerefDeepChainKeepsNoPaths(t *testing.T) {
	dir := t.TempDir()
	name := strings.Repeat("n", 255)
	unix.Close(testfs.Chain(t, dir, name, 600, nil, nil))
	tenth := dir + strings.Repeat("/"+name, 10)
	link := filepath.Join(dir, "z")
	if err := os.Symlink(tenth, link); err != nil {
		t.Fatal(err)
	}
	s := NewScanner(&Config{Deref: DerefAll, HashAll: true, Jobs: 1}, nil)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	top, err := s.Scan(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if kept := ms.HeapAlloc - min(before, ms.HeapAlloc); kept > 8<<20 {
		t.Errorf("%d bytes kept after the scan; want at most 8 MB", kept)
	}
	runtime.KeepAlive(top)
	// Walked first through the chain or through the link, whichever
	// the listing gave first; named where.
	var walked []string
	for _, w := range s.dirs {
		if w.n.walkPath != "" {
			walked = append(walked, w.n.walkPath)
		}
	}
	if len(walked) != 1 || walked[0] != tenth && walked[0] != link {
		t.Errorf("the tenth level, met again, walked at %d paths, the first of %d bytes; want it or the link", len(walked), len(append(walked, "")[0]))
	}
}
