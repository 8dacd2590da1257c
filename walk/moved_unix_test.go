//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestDetectMoves moves a directory while its subtree is walked, as
// coreutils' move-dir-while-traversing.sh does: "b" (its parent kept,
// since "x" waits) and "b/c" (its parent not kept) are renamed, or
// replaced by another directory of the same name, from the DirFunc of a
// directory below them. Each is reported, once, wrapping ErrMoved; a move
// of a directory without subdirectories, and any move without
// DetectMoves, is not.
func TestDetectMoves(t *testing.T) {
	for _, tc := range []struct {
		victim  string // moved when the DirFunc reaches trigger
		trigger string
		replace bool // put a new directory under the old name
		want    []string
		opts    Options
	}{
		{victim: "a/b", trigger: "a/b/c/d", want: []string{"a/b"}, opts: Options{Workers: 1, DetectMoves: true}},
		{victim: "a/b/c", trigger: "a/b/c/d", want: []string{"a/b/c"}, opts: Options{Workers: 1, DetectMoves: true}},
		{victim: "a/b", trigger: "a/b/c/d", replace: true, want: []string{"a/b"}, opts: Options{Workers: 1, DetectMoves: true}},
		{victim: "a/b", trigger: "a/b/c/d", want: []string{"a/b"}, opts: Options{Workers: 2, MaxOpenDirs: -1, DetectMoves: true}},
		{victim: "a/b/c/d", trigger: "a/b/c/d", opts: Options{Workers: 1, DetectMoves: true}},
		{victim: "a/b", trigger: "a/b/c/d", opts: Options{Workers: 1}},
	} {
		root := t.TempDir()
		for _, d := range []string{"a/b/c/d", "a/x"} {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		var (
			mu  sync.Mutex
			got []string
		)
		opts := tc.opts
		opts.Sorted = true
		opts.OnError = func(e *Error) error {
			if !errors.Is(e, ErrMoved) {
				t.Errorf("%s: %v", e.Path, e)
			}
			rel, _ := filepath.Rel(root, e.Path)
			mu.Lock()
			got = append(got, rel)
			mu.Unlock()
			return nil
		}
		err := Dirs(t.Context(), root, &opts, func(d *Dir) error {
			if d.Path != filepath.Join(root, tc.trigger) {
				return nil
			}
			old := filepath.Join(root, tc.victim)
			if err := os.Rename(old, filepath.Join(root, "moved")); err != nil {
				return err
			}
			if tc.replace {
				return os.Mkdir(old, 0o755)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("move of %s at %s (%+v): reported %q, want %q", tc.victim, tc.trigger, tc.opts, got, tc.want)
		}
	}
}
