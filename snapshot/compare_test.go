package snapshot

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCompareTable: each change made to a small tree after its snapshot
// is reported once, in path order, and an untouched tree reports nothing.
func TestCompareTable(t *testing.T) {
	base := []string{"a/x", "a/y", "b/", "b/c/d", "e", "l -> e", "z"}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		want   []string
	}{
		{"untouched", func(*testing.T, string) {}, nil},
		{"added", func(t *testing.T, dir string) { build(t, dir, "a/w", "b/c/new/") }, []string{"A a/w", "A b/c/new"}},
		{"removed", func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, "b")) }, []string{"D b", "D b/c", "D b/c/d"}},
		{"modified", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "a/x"), []byte("longer contents"), 0o644)
		}, []string{"M a/x"}},
		{"chmod", func(t *testing.T, dir string) { os.Chmod(filepath.Join(dir, "e"), 0o600) }, []string{"m e"}},
		{"moved", func(t *testing.T, dir string) { os.Rename(filepath.Join(dir, "a/y"), filepath.Join(dir, "b/y")) }, []string{"R a/y -> b/y"}},
		{"dir to file", func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "b"))
			build(t, dir, "b")
		}, []string{"T b", "D b/c", "D b/c/d"}},
		{"link retargeted", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "l"))
			build(t, dir, "l -> z")
		}, []string{"M l"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			build(t, dir, base...)
			settle()
			snap := take(t, dir, nil)
			tc.change(t, dir)
			equalLines(t, "changes", changes(t, snap, dir, nil), tc.want)
		})
	}
}
