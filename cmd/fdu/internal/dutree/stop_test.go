//go:build unix

package dutree

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/walk"
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

// TestRescanOfUnfinishedGone: a directory a stopped scan did not list,
// removed since or replaced by a link to another directory, cannot be
// rescanned: the rescan fails and leaves it Unfinished, not an empty
// directory read whole or the link's target read in its place.
func TestRescanOfUnfinishedGone(t *testing.T) {
	for _, c := range []struct {
		name string
		want error
	}{{"removed", fs.ErrNotExist}, {"link", syscall.ENOTDIR}} {
		root, tr := stoppedScan(t)
		n := tr.Find([]string{"a"})
		if n == nil || n.Dir == nil || n.Flags&Unfinished == 0 {
			t.Fatalf("a is %+v: not left Unfinished", n)
		}
		if err := os.RemoveAll(filepath.Join(root, "a")); err != nil {
			t.Fatal(err)
		}
		if c.name == "link" {
			other := t.TempDir()
			if err := os.WriteFile(filepath.Join(other, "secret"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, filepath.Join(root, "a")); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Rescan(context.Background(), filepath.Join(root, "a"), n, ScanOptions{Walk: walkWorkers(1)}); !errors.Is(err, c.want) {
			t.Errorf("%s: rescan: %v, want %v", c.name, err, c.want)
		}
		tr.Recount()
		if n.Flags&Unfinished == 0 || !tr.Incomplete || tr.Find([]string{"a", "secret"}) != nil {
			t.Errorf("%s: after the failed rescan: flags %#x, tree Incomplete %v, a/secret %v", c.name, n.Flags, tr.Incomplete, tr.Find([]string{"a", "secret"}))
		}
	}
}

// TestRescanOfUnfinishedLinkUnderL: under -L a link to a directory, left
// Unfinished by a stopped scan, is rescanned through the link.
func TestRescanOfUnfinishedLinkUnderL(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	follow := func() *walk.Options {
		return &walk.Options{Workers: 1, StatAll: true, Reuse: true, FollowSymlinks: true}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, _, err := Scan(ctx, root, ScanOptions{Walk: follow, Exclude: func(string) bool { cancel(); return false }})
	if err != nil || tr == nil {
		t.Fatalf("a scan stopped after its root's listing: %v", err)
	}
	n := tr.Find([]string{"l"})
	if n == nil || n.Dir == nil || n.Flags&Unfinished == 0 {
		t.Fatalf("l is %+v: not left Unfinished", n)
	}
	if _, err := Rescan(context.Background(), filepath.Join(root, "l"), n, ScanOptions{Walk: follow}); err != nil {
		t.Fatal(err)
	}
	tr.Recount()
	if tr.Find([]string{"l", "f"}) == nil || tr.Incomplete {
		t.Errorf("after the rescan: l/f %v, Incomplete %v", tr.Find([]string{"l", "f"}), tr.Incomplete)
	}
}
