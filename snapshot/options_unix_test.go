//go:build unix

package snapshot

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCompareOptions: each option changes what is reported as its doc
// says, on one set of changes.
func TestCompareOptions(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "a/moved", "b/", "ctime", "keep/f", "skip/f", "x.o")
	settle()
	snap := take(t, dir, &Options{Hash: HashAll})
	os.Rename(filepath.Join(dir, "a/moved"), filepath.Join(dir, "b/moved"))
	os.Chmod(filepath.Join(dir, "ctime"), 0o644) // the same mode: the change time alone
	build(t, dir, "skip/new", "y.o")
	for _, tc := range []struct {
		name string
		opts *CompareOptions
		want []string
	}{
		{"defaults", nil, []string{"R a/moved -> b/moved", "m ctime", "A skip/new", "A y.o"}},
		{"ignore ctime", &CompareOptions{IgnoreChangeTime: true}, []string{"R a/moved -> b/moved", "A skip/new", "A y.o"}},
		{"ignore inode", &CompareOptions{IgnoreFileID: true}, []string{"D a/moved", "A b/moved", "m ctime", "A skip/new", "A y.o"}},
		{"no moves", &CompareOptions{MoveWindow: -1}, []string{"D a/moved", "A b/moved", "m ctime", "A skip/new", "A y.o"}},
		{"hash", &CompareOptions{Hash: true}, []string{"R a/moved -> b/moved", "m ctime", "A skip/new", "A y.o"}},
		{"exclude", &CompareOptions{Exclude: []string{"*.o", "/skip"}}, []string{"R a/moved -> b/moved", "m ctime"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			equalLines(t, "changes", changes(t, snap, dir, tc.opts), tc.want)
		})
	}
}

// TestHashTellsARewrite: a rewrite of the same size whose modification
// time is set back shows as a change of ctime alone; with hashes it is a
// change of contents.
func TestHashTellsARewrite(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "f")
	settle()
	snap := take(t, dir, &Options{Hash: HashAll})
	p := filepath.Join(dir, "f")
	st, _ := os.Stat(p)
	os.WriteFile(p, []byte("CONTENTS OF F"), 0o644)
	os.Chtimes(p, st.ModTime(), st.ModTime())
	equalLines(t, "without hashes", changes(t, snap, dir, nil), []string{"m f"})
	equalLines(t, "with hashes", changes(t, snap, dir, &CompareOptions{Hash: true}), []string{"M f"})
	// Between two snapshots, by the hashes they hold.
	var got []string
	err := CompareSnapshots(context.Background(), bytes.NewReader(snap), bytes.NewReader(take(t, dir, &Options{Hash: HashAll})),
		&CompareOptions{Hash: true}, func(c *Change) error { got = append(got, line(c)); return nil })
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "between snapshots, with hashes", got, []string{"M f"})
	// In a directory listed again (a name added), as in one that was not.
	build(t, dir, "g")
	equalLines(t, "with hashes, in a directory listed again", changes(t, snap, dir, &CompareOptions{Hash: true}), []string{"M f", "A g"})
}

// TestMoveWindow: a move whose halves are farther apart than the window
// is a removal and an addition; within it, a move.
func TestMoveWindow(t *testing.T) {
	dir := t.TempDir()
	var specs []string
	for i := range 30 {
		specs = append(specs, fmt.Sprintf("m/f%02d", i))
	}
	build(t, dir, append(specs, "a/one")...)
	settle()
	snap := take(t, dir, nil)
	os.Rename(filepath.Join(dir, "a/one"), filepath.Join(dir, "z"))
	os.RemoveAll(filepath.Join(dir, "m")) // 31 changes between the halves
	// The removal waits with the 31 behind it: 32 changes held back.
	for _, w := range []int{-1, 10, 31} {
		got := changes(t, snap, dir, &CompareOptions{MoveWindow: w})
		if got[0] != "D a/one" || got[len(got)-1] != "A z" {
			t.Errorf("window %d: first %q, last %q; want D a/one, A z", w, got[0], got[len(got)-1])
		}
	}
	for _, w := range []int{32, 100} {
		got := changes(t, snap, dir, &CompareOptions{MoveWindow: w})
		if got[len(got)-1] != "R a/one -> z" || len(got) != 32 {
			t.Errorf("window %d: %d changes, last %q; want 32, R a/one -> z", w, len(got), got[len(got)-1])
		}
	}
}

// TestExcludeInSnapshot: patterns given to Take leave entries out of the
// snapshot and out of every compare of it.
func TestExcludeInSnapshot(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "keep", "build/out", "a/cache/f")
	settle()
	snap := take(t, dir, &Options{Exclude: []string{"build", "a/cache"}})
	dirs, err := readAll(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		for _, e := range d.Entries {
			if e.Name == "build" || e.Name == "cache" {
				t.Errorf("%q/%s is in the snapshot", d.Path, e.Name)
			}
		}
	}
	build(t, dir, "build/more", "a/cache/g", "new")
	equalLines(t, "changes", changes(t, snap, dir, nil), []string{"A new"})
	if _, err := newExcluder([]string{"["}); err == nil {
		t.Error("a bad pattern is accepted")
	}
}

// TestWriteFileAtomic: WriteFile replaces a snapshot whole, leaves no
// temporary file, keeps its own file out of a snapshot of the directory
// holding it, and on failure leaves the old one.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "f")
	settle()
	file := filepath.Join(dir, "snap")
	for range 2 {
		if err := WriteFile(context.Background(), dir, file, nil); err != nil {
			t.Fatal(err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d files beside the snapshot, want f and snap", len(ents))
	}
	old, _ := os.ReadFile(file)
	time.Sleep(10 * time.Millisecond)
	if err := WriteFile(context.Background(), filepath.Join(dir, "missing"), file, nil); err == nil {
		t.Error("a snapshot of a missing directory succeeds")
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, old) {
		t.Error("a failed snapshot changed the file")
	}
	settle()
	equalLines(t, "the snapshot's own file", changes(t, old, dir, nil), nil)
}

// TestCompareSnapshotsOrderErrors: a later snapshot of another tree
// compares, and a snapshot compared with itself reports nothing.
func TestCompareSnapshotsSelf(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "a/b/c", "d")
	settle()
	snap := take(t, dir, nil)
	n := 0
	err := CompareSnapshots(context.Background(), bytes.NewReader(snap), bytes.NewReader(snap), nil, func(*Change) error { n++; return nil })
	if err != nil || n != 0 {
		t.Errorf("a snapshot against itself: %d changes, %v", n, err)
	}
}

// TestHashRacyHashesTheRacyOnly: HashRacy hashes a racy file (here one
// whose modification time is ahead of the snapshot's start), not one
// changed longer ago than the clock's step; HashNone hashes neither,
// HashAll both.
func TestHashRacyHashesTheRacyOnly(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "old", "new")
	ahead := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "new"), ahead, ahead); err != nil {
		t.Fatal(err)
	}
	settle()
	for _, c := range []struct {
		mode     HashMode
		old, new bool
	}{{HashNone, false, false}, {HashRacy, false, true}, {HashAll, true, true}} {
		dirs, err := readAll(take(t, dir, &Options{Hash: c.mode}))
		if err != nil {
			t.Fatal(err)
		}
		hashed := map[string]bool{}
		for _, e := range dirs[0].Entries {
			hashed[e.Name] = e.Hash != ""
		}
		if hashed["old"] != c.old || hashed["new"] != c.new {
			t.Errorf("mode %d: old hashed %v, new %v; want %v, %v", c.mode, hashed["old"], hashed["new"], c.old, c.new)
		}
	}
}
