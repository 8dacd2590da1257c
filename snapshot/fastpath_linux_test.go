package snapshot

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// listed runs fn and returns the snapshot's directories that a compare
// listed again meanwhile, sorted.
func listed(fn func()) []string {
	var mu sync.Mutex
	var out []string
	testHookListed = func(rel string) {
		mu.Lock()
		out = append(out, rel)
		mu.Unlock()
	}
	defer func() { testHookListed = nil }()
	fn()
	slices.Sort(out)
	return out
}

// TestUnchangedDirectoriesAreNotListed: on a file system that keeps
// directory times, a compare lists again only the directories whose own
// times changed since the snapshot (or were racy then), and still finds
// what changed in files of the others.
func TestUnchangedDirectoriesAreNotListed(t *testing.T) {
	dir := t.TempDir()
	testfs.MountTmpfs(t, dir)
	build(t, dir, "a/x", "b/y", "c/d/z", "e")
	settle()
	snap := take(t, dir, nil)
	if got := listed(func() { equalLines(t, "untouched", changes(t, snap, dir, nil), nil) }); len(got) != 0 {
		t.Errorf("an untouched tree had %q listed", got)
	}
	build(t, dir, "c/d/new")
	if err := os.WriteFile(filepath.Join(dir, "a/x"), []byte("rewritten, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	l := listed(func() { got = changes(t, snap, dir, nil) })
	equalLines(t, "changes", got, []string{"M a/x", "A c/d/new"})
	equalLines(t, "listed", l, []string{"c/d"})
}

// TestRacyDirectoryIsListed: a directory changed in the tick of the
// snapshot is listed by the next compare, whatever its times say.
func TestRacyDirectoryIsListed(t *testing.T) {
	dir := t.TempDir()
	testfs.MountTmpfs(t, dir)
	build(t, dir, "a/x", "b/y")
	settle()
	// Times ahead of the snapshot's start are as racy as those in its
	// tick, and do not depend on how fast the snapshot starts.
	build(t, dir, "a/fresh")
	ahead := time.Now().Add(time.Hour)
	for _, p := range []string{"a/fresh", "a"} {
		if err := os.Chtimes(filepath.Join(dir, p), ahead, ahead); err != nil {
			t.Fatal(err)
		}
	}
	snap := take(t, dir, nil)
	got := listed(func() { equalLines(t, "changes", changes(t, snap, dir, nil), []string{"? a/fresh"}) })
	equalLines(t, "listed", got, []string{"a"})

}
