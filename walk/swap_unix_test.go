//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestSwapForSymlink swaps a directory for a symbolic link to a directory
// outside the tree, after its parent's listing and before its own open
// (at "a"), or after its own listing and before its subdirectory's open
// (at "victim"): the walk must never list what the link leads to, on
// every Unix, with and without descriptors to spare. A directory found
// swapped is refused (ELOOP or ENOTDIR from openat with O_NOFOLLOW); one
// opened from its parent's kept descriptor is the one that was listed.
func TestSwapForSymlink(t *testing.T) {
	for _, at := range []string{"a", "victim"} {
		for _, opts := range []Options{{Workers: 1}, {Workers: 4}, {Workers: 2, MaxOpenDirs: -1}} {
			testSwap(t, at, opts)
		}
	}
}

func testSwap(t *testing.T, at string, opts Options) {
	{
		base := t.TempDir()
		root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
		must(t, os.MkdirAll(filepath.Join(root, "a", "victim", "deeper"), 0o755))
		must(t, os.MkdirAll(filepath.Join(outside, "deeper", "secret-dir"), 0o755))
		must(t, os.WriteFile(filepath.Join(outside, "secret"), nil, 0o644))

		var mu sync.Mutex
		var seen, errs []string
		opts.OnError = func(e *Error) error {
			mu.Lock()
			errs = append(errs, e.Error())
			mu.Unlock()
			if !errors.Is(e.Err, syscall.ELOOP) && !errors.Is(e.Err, syscall.ENOTDIR) {
				t.Errorf("%+v: error %v, want ELOOP or ENOTDIR", opts, e)
			}
			return nil
		}
		err := Dirs(context.Background(), root, &opts, func(d *Dir) error {
			mu.Lock()
			defer mu.Unlock()
			for _, e := range d.Entries {
				seen = append(seen, filepath.Join(d.Path, e.Name))
			}
			if d.Info.Name == at {
				victim := filepath.Join(root, "a", "victim")
				must(t, os.Rename(victim, filepath.Join(base, "moved")))
				must(t, os.Symlink(outside, victim))
			}
			return nil
		})
		if err != nil {
			t.Errorf("%+v: %v", opts, err)
		}
		for _, p := range seen {
			if strings.Contains(p, "secret") {
				t.Errorf("%+v: the walk listed %s through the swapped link", opts, p)
			}
		}
		if at == "a" && len(errs) != 1 || len(errs) > 1 {
			t.Errorf("swap at %s, %+v: errors %q", at, opts, errs)
		}
	}
}
