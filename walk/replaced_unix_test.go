//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// TestReplacedAncestorNotEntered: with no descriptor kept, each directory
// is found again from the root through its ancestors' names. A directory
// on the way renamed away and another put in its place, holding the same
// names, is never entered: the open fails with dirfd.ErrReplaced, and
// nothing of the impostor is listed.
func TestReplacedAncestorNotEntered(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a/s1/x", "a/s2/y"} {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755))
		must(t, os.WriteFile(filepath.Join(root, p), nil, 0o644))
	}
	var mu sync.Mutex
	var seen []string
	var errs []error
	swapped := false
	err := Dirs(context.Background(), root, &Options{Workers: 1, Sorted: true, MaxOpenDirs: -1,
		OnError: func(e *Error) error {
			mu.Lock()
			errs = append(errs, e.Err)
			mu.Unlock()
			return nil
		}}, func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range d.Entries {
			seen = append(seen, e.Name)
		}
		if filepath.Base(d.Path) == "s1" && !swapped {
			swapped = true
			must(t, os.Rename(filepath.Join(root, "a"), filepath.Join(root, "a-old")))
			must(t, os.MkdirAll(filepath.Join(root, "a", "s2"), 0o755))
			must(t, os.WriteFile(filepath.Join(root, "a", "s2", "impostor"), nil, 0o644))
		}
		return nil
	})
	must(t, err)
	if !swapped {
		t.Fatal("the walk never reached s1")
	}
	for _, name := range seen {
		if name == "impostor" {
			t.Fatalf("the walk listed a directory put in place of one it had found: %q", seen)
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], dirfd.ErrReplaced) {
		t.Errorf("errors %v, want one ErrReplaced for s2", errs)
	}
}
