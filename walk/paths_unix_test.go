//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestPathsAsGiven: a directory's Path, in its DirFunc, its Post and its
// move check, is the root as given joined with the names below it (no
// separator doubled after a root that ends with one), under the options
// that change how a walk comes to a directory and back: Reuse, Batches,
// a split directory, FollowSymlinks, DetectMoves, few descriptors.
func TestPathsAsGiven(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"a/b/c", "a/x", "big", "l/m"} {
		must(t, os.MkdirAll(filepath.Join(base, "top", d), 0o755))
	}
	for i := range 40 {
		must(t, os.Mkdir(filepath.Join(base, "top", "big", "d"+strings.Repeat("x", 100)+string(rune('a'+i%26))+string(rune('a'+i/26))), 0o755))
	}
	must(t, os.Symlink("a", filepath.Join(base, "top", "link")))
	t.Chdir(filepath.Join(base, "top", "a"))
	roots := map[string]string{ // as given: where it is
		filepath.Join(base, "top"):       filepath.Join(base, "top"),
		filepath.Join(base, "top") + "/": filepath.Join(base, "top"),
		".":                              filepath.Join(base, "top", "a"),
		"..":                             filepath.Join(base, "top"),
		"./b":                            filepath.Join(base, "top", "a", "b"),
	}
	post := func(*Dir) error { return nil }
	for root := range roots {
		for _, o := range []Options{
			{Workers: 2, Post: post},
			{Workers: 2, Post: post, Reuse: true, Batches: true, DetectMoves: true},
			{Workers: 2, Post: post, SplitDirSize: 1, MaxOpenDirs: 1},
			{Workers: 1, Post: post, FollowSymlinks: true, DetectMoves: true, MaxOpenDirs: 1},
		} {
			var mu sync.Mutex
			seen := map[string]bool{}
			check := func(what string, d *Dir) {
				want := root
				if d.Depth > 0 {
					want = joinPath(d.Parent.Data.(string), d.Info.Name)
				}
				if d.Path != want {
					t.Errorf("root %q %+v: %s path %q, want %q", root, o, what, d.Path, want)
				}
			}
			o.Post = func(d *Dir) error {
				check("Post", d)
				return nil
			}
			o.OnError = func(e *Error) error {
				t.Errorf("root %q: %v", root, e)
				return nil
			}
			must(t, Dirs(context.Background(), root, &o, func(d *Dir) error {
				check("DirFunc", d)
				d.Data = strings.Clone(d.Path) // what its subdirectories' paths start with
				mu.Lock()
				seen[d.Path] = true
				mu.Unlock()
				return nil
			}))
			for p := range seen {
				if strings.Contains(p, "//") {
					t.Errorf("root %q: %q", root, p)
				}
			}
		}
	}
	// "/": its subdirectories are "/name", as Post sees them too once
	// theirs are done (the path built again).
	var mu sync.Mutex
	var bad []string
	o := Options{MaxDepth: 2, Workers: 2, OnError: func(*Error) error { return nil }, Post: func(d *Dir) error {
		if d.Depth == 1 && (d.Path != "/"+d.Info.Name) || d.Depth == 0 && d.Path != "/" {
			mu.Lock()
			bad = append(bad, d.Path)
			mu.Unlock()
		}
		return nil
	}}
	Dirs(context.Background(), "/", &o, func(*Dir) error { return nil })
	if len(bad) > 0 {
		t.Errorf("walking /: Post's paths %q", bad)
	}
}
