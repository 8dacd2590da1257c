package snapshot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCompareTable: each change made to a small tree after its snapshot
// is reported once, in path order, and an untouched tree reports nothing;
// a snapshot taken after the change, compared with the first, reports the
// same. Excluded directories report nothing either way.
func TestCompareTable(t *testing.T) {
	base := []string{"a/x", "a/y", "b/", "b/c/d", "b/f", "e", "l -> e", "skip/s/t", "z"}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		want   []string
	}{
		{"untouched", func(*testing.T, string) {}, nil},
		{"added", func(t *testing.T, dir string) { build(t, dir, "a/w", "b/c/new/") }, []string{"A a/w", "A b/c/new"}},
		{"added, a directory before a file", func(t *testing.T, dir string) { build(t, dir, "n/s/f", "n/t") },
			[]string{"A n", "A n/s", "A n/s/f", "A n/t"}},
		{"removed", func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, "b")) }, []string{"D b", "D b/c", "D b/c/d", "D b/f"}},
		{"excluded", func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "skip", "s"))
			build(t, dir, "skip/u/v")
		}, nil},
		{"modified", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "a/x"), []byte("longer contents"), 0o644)
		}, []string{"M a/x"}},
		{"chmod", func(t *testing.T, dir string) { os.Chmod(filepath.Join(dir, "e"), 0o600) }, []string{"m e"}},
		{"moved", func(t *testing.T, dir string) { os.Rename(filepath.Join(dir, "a/y"), filepath.Join(dir, "b/y")) }, []string{"R a/y -> b/y"}},
		{"dir to file", func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "b"))
			build(t, dir, "b")
		}, []string{"T b", "D b/c", "D b/c/d", "D b/f"}},
		{"link retargeted", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "l"))
			build(t, dir, "l -> z")
		}, []string{"M l"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			build(t, dir, base...)
			settle()
			opts := &Options{Exclude: []string{"skip/*"}}
			snap := take(t, dir, opts)
			tc.change(t, dir)
			equalLines(t, "changes", changes(t, snap, dir, nil), tc.want)
			later := take(t, dir, opts)
			var got []string
			err := CompareSnapshots(context.Background(), bytes.NewReader(snap), bytes.NewReader(later), nil, func(c *Change) error {
				got = append(got, line(c))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			equalLines(t, "changes between the snapshots", got, tc.want)
		})
	}
}

// TestCompareExcludesMore: patterns a compare adds to the snapshots' own
// leave out a directory present on both sides, changed inside, and what
// follows it (a directory whose name it begins) is compared as before,
// against the tree and between two snapshots.
func TestCompareExcludesMore(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "a/x", "b/c/d", "b/f", "bx/c/y", "z")
	settle()
	snap := take(t, dir, nil)
	build(t, dir, "b/c/new", "b/g/")
	for _, f := range []string{"a/x", "bx/c/y", "z"} {
		os.WriteFile(filepath.Join(dir, f), []byte("longer contents"), 0o644)
	}
	want := []string{"M a/x", "M bx/c/y", "M z"}
	opts := &CompareOptions{Exclude: []string{"b"}}
	equalLines(t, "changes", changes(t, snap, dir, opts), want)
	later := take(t, dir, nil)
	var got []string
	err := CompareSnapshots(context.Background(), bytes.NewReader(snap), bytes.NewReader(later), opts, func(c *Change) error {
		got = append(got, line(c))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "changes between the snapshots", got, want)
}
