package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// batchTree is a directory of 6,000 files (several kernel buffers) with
// subdirectories, beside a small one.
func batchTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"big/s1", "big/s2/deep", "small"} {
		must(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	for i := range 6000 {
		must(t, os.WriteFile(filepath.Join(root, "big", fmt.Sprintf("file-with-a-name-%05d", i)), make([]byte, i%9), 0o644))
	}
	for _, f := range []string{"big/s1/a", "big/s2/deep/b", "small/c"} {
		must(t, os.WriteFile(filepath.Join(root, f), []byte("xy"), 0o644))
	}
	_ = os.Symlink("nowhere", filepath.Join(root, "big", "link")) // where links can be made
	return root
}

// listingOf walks root and returns each directory's entries (name, size,
// type), sorted, joined from all its parts; and each directory's parts.
func listingOf(t *testing.T, root string, opts Options) (map[string]string, map[string]int) {
	t.Helper()
	var mu sync.Mutex
	got := map[string][]string{}
	parts := map[string]int{}
	lastSeen := map[string]bool{}
	opts.Post = func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		if !lastSeen[d.Path] {
			t.Errorf("%s: Post before its last part", d.Path)
		}
		return nil
	}
	err := Dirs(context.Background(), root, &opts, func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		if d.Batch != parts[d.Path] {
			t.Errorf("%s: part %d after %d parts", d.Path, d.Batch, parts[d.Path])
		}
		parts[d.Path]++
		lastSeen[d.Path] = !d.More
		for _, e := range d.Entries {
			got[d.Path] = append(got[d.Path], fmt.Sprintf("%s %d %v", e.Name, e.Size, e.Type))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for p, es := range got {
		slices.Sort(es)
		out[p] = strings.Join(es, "\n")
	}
	return out, parts
}

// TestBatches: under Batches the parts of each directory are its listing,
// each entry once, whatever the workers and the split; a directory of
// several buffers comes in several parts on Linux; Post comes after the
// last part.
func TestBatches(t *testing.T) {
	root := batchTree(t)
	want, _ := listingOf(t, root, Options{Workers: 1, StatAll: true})
	for _, opts := range []Options{
		{Batches: true, Workers: 1, StatAll: true},
		{Batches: true, Workers: 3, StatAll: true},
		{Batches: true, Workers: 2, StatAll: true, SplitDirSize: 1},
		{Batches: true, Workers: 2, StatAll: true, HardLinksOnce: true, Reuse: true},
	} {
		got, parts := listingOf(t, root, opts)
		if len(got) != len(want) {
			t.Errorf("%+v: %d directories, want %d", opts, len(got), len(want))
		}
		for p, w := range want {
			if got[p] != w {
				t.Errorf("%+v: %s differs from the whole listing", opts, p)
			}
		}
		if big := parts[filepath.Join(root, "big")]; runtime.GOOS == "linux" && big < 3 {
			t.Errorf("%+v: big came in %d parts", opts, big)
		}
	}
}

// TestBatchesSkipDir: SkipDir from a directory's first part, or from a
// later one after earlier parts brought subdirectories, reads no more of
// it and walks none of its subdirectories.
func TestBatchesSkipDir(t *testing.T) {
	root := batchTree(t)
	big := filepath.Join(root, "big")
	// Enough subdirectories that the first part holds some of them.
	for i := range 100 {
		must(t, os.Mkdir(filepath.Join(big, fmt.Sprint("sub-", i)), 0o755))
	}
	for _, stop := range []int{0, 1} {
		for _, workers := range []int{1, 2} {
			var mu sync.Mutex
			var seen []string
			parts, dirsBefore := 0, 0
			err := Dirs(context.Background(), root, &Options{Batches: true, Workers: workers}, func(d *Dir) error {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, d.Path)
				if d.Path != big {
					return nil
				}
				parts++
				if d.Batch == stop {
					return fs.SkipDir
				}
				for _, e := range d.Entries {
					if e.Type.IsDir() {
						dirsBefore++
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if stop > 0 && parts <= stop {
				t.Skipf("big came in %d parts: no later part to stop at", parts)
			}
			if stop > 0 && dirsBefore == 0 {
				t.Fatalf("big's parts before part %d held no subdirectory", stop)
			}
			for _, p := range seen {
				if strings.HasPrefix(p, big+string(filepath.Separator)) {
					t.Errorf("SkipDir at part %d, %d workers: %s walked", stop, workers, p)
				}
			}
			if parts != stop+1 {
				t.Errorf("SkipDir at part %d, %d workers: big came in %d parts, want %d", stop, workers, parts, stop+1)
			}
		}
	}
}

// TestBatchesSmallDirectoryOnePart: a directory that fits a buffer is one
// part, with More unset; an empty one too.
func TestBatchesSmallDirectoryOnePart(t *testing.T) {
	root := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "empty"), 0o755))
	for i := range 20 {
		must(t, os.WriteFile(filepath.Join(root, fmt.Sprint("f", i)), nil, 0o644))
	}
	var mu sync.Mutex
	calls := map[string]int{}
	err := Dirs(context.Background(), root, &Options{Batches: true}, func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		calls[d.Path]++
		if d.More {
			t.Errorf("%s: More set on a directory that fits one buffer", d.Path)
		}
		return nil
	})
	must(t, err)
	for p, n := range calls {
		if n != 1 {
			t.Errorf("%s: %d parts, want 1", p, n)
		}
	}
}

// TestBatchesStopBetweenParts: once the walk is cancelled, a directory
// read in parts is read no further.
func TestBatchesStopBetweenParts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a directory is one part outside Linux")
	}
	root := batchTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	after := 0
	err := Dirs(ctx, root, &Options{Batches: true, Workers: 1}, func(d *Dir) error {
		if d.Batch == 1 {
			cancel()
		} else if d.Batch > 1 {
			after++
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Dirs: %v, want context.Canceled", err)
	}
	if after != 0 {
		t.Errorf("%d parts after the cancellation", after)
	}
}
