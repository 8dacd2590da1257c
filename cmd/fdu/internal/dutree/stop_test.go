//go:build unix

package dutree

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// stoppedScan scans makeTree's tree with one worker, stopped as the root's
// listing ends: the root is read, no directory below it.
func stoppedScan(t *testing.T) (string, *Tree) {
	t.Helper()
	root := makeTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, _, err := Scan(ctx, root, ScanOptions{Walk: walkWorkers(1), Exclude: func(p string) bool {
		cancel() // the walk checks its context before the next directory
		return false
	}})
	if err != nil || tr == nil {
		t.Fatalf("a scan stopped after its root's listing: %v, tree %v", err, tr)
	}
	return root, tr
}

// TestStoppedScanKeepsWhatItRead: a scan stopped once its root is listed
// returns the tree it read, Incomplete, each directory it did not list
// marked Unfinished, errors below on the root; a rescan of each completes
// it.
func TestStoppedScanKeepsWhatItRead(t *testing.T) {
	root, tr := stoppedScan(t)
	if !tr.Incomplete {
		t.Error("not Incomplete")
	}
	if f := tr.Find([]string{"lnk"}); f == nil || f.Flags&Symlink == 0 {
		t.Errorf("the root's entries: lnk %+v", f)
	}
	var unfinished []string
	for _, k := range tr.Top.Entries() {
		if k.Dir != nil && k.Flags&Unfinished != 0 {
			unfinished = append(unfinished, k.Name)
		}
	}
	if strings.Join(unfinished, " ") != strings.Join(sortedDirs(tr), " ") || len(unfinished) != 3 {
		t.Errorf("unfinished %q, want every directory", unfinished)
	}
	if tr.Top.own.flags&ErrorBelow == 0 {
		t.Error("the root is not marked for what is unread below")
	}
	for _, name := range unfinished {
		n := tr.Find([]string{name})
		if _, err := Rescan(context.Background(), filepath.Join(root, name), n, ScanOptions{Walk: walkWorkers(1)}); err != nil {
			t.Fatal(err)
		}
	}
	tr.Recount()
	if tr.Incomplete || tr.Find([]string{"a", "b", "c", "deep"}) == nil {
		t.Errorf("after rescans: Incomplete %v, a/b/c/deep %v", tr.Incomplete, tr.Find([]string{"a", "b", "c", "deep"}))
	}
}

// TestDeleteRefusedInUnfinished: what a stopped scan did not list, or
// holds something it did not, is not deleted.
func TestDeleteRefusedInUnfinished(t *testing.T) {
	_, tr := stoppedScan(t)
	for _, name := range []string{"a", "empty"} {
		if err := tr.Delete(context.Background(), nil, name); !errors.Is(err, ErrUnknown) {
			t.Errorf("%s: %v, want ErrUnknown", name, err)
		}
		if tr.Find([]string{name}) == nil {
			t.Errorf("%s: gone from the tree", name)
		}
	}
}

func sortedDirs(tr *Tree) []string {
	var out []string
	for _, k := range tr.Top.Entries() {
		if k.Dir != nil {
			out = append(out, k.Name)
		}
	}
	return out
}
