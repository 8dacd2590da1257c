// Package treegen makes directory trees for the project's tests and
// benchmarks: the same tree from the same shape and seed, every time.
package treegen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Shape describes a tree.
type Shape struct {
	Name string
	// Dirs and Files per directory at each level, from the root down.
	// Levels deeper than the slices use their last element.
	Levels  int
	Fanout  []int // subdirectories per directory
	Files   []int // files per directory
	MaxSize int   // file sizes are drawn from 0..MaxSize bytes
	// Symlinks per directory: to a sibling file, to the parent, dangling.
	Symlinks int
	// HardLinks: every HardLinks-th file is a hard link to the first file
	// of its directory (0: none).
	HardLinks int
}

// Shapes the tests and benchmarks share.
var (
	// SourceCheckout is about 100,000 entries shaped like a large source
	// tree: a few wide top-level directories, most files a few levels down.
	SourceCheckout = Shape{Name: "source", Levels: 5, Fanout: []int{12, 8, 6, 3, 0}, Files: []int{10, 12, 20, 24, 47}, MaxSize: 16 << 10, Symlinks: 0, HardLinks: 0}
	// Deep is dumac's tree: 12 levels of 2 subdirectories, 4,095
	// directories with 100 files each.
	Deep = Shape{Name: "deep", Levels: 12, Fanout: []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0}, Files: []int{100}, MaxSize: 4 << 10}
	// Huge is one directory of 100,000 files.
	Huge = Shape{Name: "huge", Levels: 1, Fanout: []int{0}, Files: []int{100000}, MaxSize: 1024}
	// Million is 1,000,000 small files in 1,000 directories three levels
	// down: the browser's large benchmark tree.
	Million = Shape{Name: "million", Levels: 4, Fanout: []int{10, 10, 10, 0}, Files: []int{0, 0, 0, 1000}, MaxSize: 512}
	// SeedLarge and SeedSmall are the two action-input trees of the build
	// farm seed: 1,978 files of about 466 MB, and 635 files of about
	// 180 MB.
	SeedLarge = Shape{Name: "seed-large", Levels: 3, Fanout: []int{8, 6, 0}, Files: []int{10, 12, 39}, MaxSize: 471000}
	SeedSmall = Shape{Name: "seed-small", Levels: 3, Fanout: []int{5, 4, 0}, Files: []int{15, 12, 28}, MaxSize: 567000}
	// NodeModules is many small packages, each with a few files and
	// symbolic links, as npm leaves them.
	NodeModules = Shape{Name: "node_modules", Levels: 3, Fanout: []int{300, 2, 0}, Files: []int{2, 8, 6}, MaxSize: 8 << 10, Symlinks: 2, HardLinks: 0}
)

// Small returns a copy of s scaled down for tests: at most levels levels,
// and fanout subdirectories and files per directory.
func (s Shape) Small(levels, fanout, files int) Shape {
	t := s
	t.Levels = min(t.Levels, levels)
	t.Fanout = append([]int(nil), s.Fanout...)
	t.Files = append([]int(nil), s.Files...)
	for i := range t.Fanout {
		t.Fanout[i] = min(t.Fanout[i], fanout)
	}
	for i := range t.Files {
		t.Files[i] = min(t.Files[i], files)
	}
	return t
}

func at(xs []int, i int) int {
	if len(xs) == 0 {
		return 0
	}
	return xs[min(i, len(xs)-1)]
}

// Make builds the tree described by s under dir, which must exist, using
// seed for names and sizes. It returns the number of entries made (files,
// directories and links, the root not counted).
func Make(dir string, s Shape, seed uint64) (int, error) {
	r := rand.New(rand.NewPCG(seed, 0x6672640a))
	return makeLevel(dir, s, 0, r)
}

func makeLevel(dir string, s Shape, level int, r *rand.Rand) (int, error) {
	n := 0
	var first string
	files := at(s.Files, level)
	for i := range files {
		name := filepath.Join(dir, fmt.Sprintf("f%05d-%x.%s", i, r.Uint32()&0xffff, exts[r.IntN(len(exts))]))
		if s.HardLinks > 0 && first != "" && i%s.HardLinks == 0 {
			if err := os.Link(first, name); err != nil {
				return n, err
			}
			n++
			continue
		}
		size := 0
		if s.MaxSize > 0 {
			size = r.IntN(s.MaxSize + 1)
		}
		if err := os.WriteFile(name, make([]byte, size), 0o644); err != nil {
			return n, err
		}
		if first == "" {
			first = name
		}
		n++
	}
	for i := range s.Symlinks {
		targets := []string{filepath.Base(first), "..", "missing-target"}
		t := targets[i%len(targets)]
		if t == "" || t == "." {
			t = "missing-target"
		}
		if err := os.Symlink(t, filepath.Join(dir, fmt.Sprintf("link%d", i))); err != nil {
			return n, err
		}
		n++
	}
	if level+1 >= s.Levels {
		return n, nil
	}
	for i := range at(s.Fanout, level) {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			return n, err
		}
		m, err := makeLevel(sub, s, level+1, r)
		n += m + 1
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

var exts = []string{"go", "c", "h", "txt", "json", "md", "js", "png"}
