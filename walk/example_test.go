package walk_test

import (
	"context"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pbednarcik/flexreaddir/walk"
)

// tree makes a small tree for the examples and returns its root.
func tree() string {
	root, err := os.MkdirTemp("", "walk-example-")
	if err != nil {
		log.Fatal(err)
	}
	for name, size := range map[string]int{
		"go.mod":               30,
		"main.go":              200,
		"cmd/tool/main.go":     500,
		"internal/a/a.go":      1000,
		"internal/a/a_test.go": 700,
		"internal/b/b.go":      50,
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return root
}

// Dirs passes each directory's whole listing, with sizes, to one call.
// Calls run on several goroutines at once.
func ExampleDirs() {
	root := tree()
	defer os.RemoveAll(root)

	var mu sync.Mutex
	err := walk.Dirs(context.Background(), root, nil, func(d *walk.Dir) error {
		var files int
		var bytes int64
		for _, e := range d.Entries {
			if e.Type.IsRegular() {
				files++
				bytes += e.Size
			}
		}
		rel, _ := filepath.Rel(root, d.Path)
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf("%s: %d files, %d bytes\n", rel, files, bytes)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Unordered output:
	// .: 2 files, 230 bytes
	// cmd: 0 files, 0 bytes
	// cmd/tool: 1 files, 500 bytes
	// internal: 0 files, 0 bytes
	// internal/a: 2 files, 1700 bytes
	// internal/b: 1 files, 50 bytes
}

// A walk that keeps nothing from its calls, such as a disk-usage sum, sets
// Reuse: the walk then recycles each finished directory's record and the
// listings' names, and allocates little beyond each directory's path. A
// name kept past its call must be copied with strings.Clone.
func ExampleOptions_reuse() {
	root := tree()
	defer os.RemoveAll(root)

	var files, bytes atomic.Int64
	var mu sync.Mutex
	var largest string // copied: the name's storage is reused
	var largestSize int64
	err := walk.Dirs(context.Background(), root, &walk.Options{Reuse: true}, func(d *walk.Dir) error {
		for _, e := range d.Entries {
			if !e.Type.IsRegular() {
				continue
			}
			files.Add(1)
			bytes.Add(e.Size)
			mu.Lock()
			if e.Size > largestSize {
				largest, largestSize = strings.Clone(e.Name), e.Size
			}
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(files.Load(), "files,", bytes.Load(), "bytes; largest", largest)
	// Output:
	// 6 files, 2480 bytes; largest a.go
}

// Post runs after a directory's subtree, so totals add up bottom-up, as a
// disk-usage tool needs them.
func ExampleOptions_post() {
	root := tree()
	defer os.RemoveAll(root)

	type total struct{ bytes atomic.Int64 }
	var mu sync.Mutex
	opts := &walk.Options{
		Post: func(d *walk.Dir) error {
			t := d.Data.(*total)
			if d.Parent != nil {
				d.Parent.Data.(*total).bytes.Add(t.bytes.Load())
			}
			rel, _ := filepath.Rel(root, d.Path)
			mu.Lock()
			defer mu.Unlock()
			fmt.Printf("%s %d\n", rel, t.bytes.Load())
			return nil
		},
	}
	err := walk.Dirs(context.Background(), root, opts, func(d *walk.Dir) error {
		t := new(total)
		for _, e := range d.Entries {
			t.bytes.Add(e.Size)
		}
		d.Data = t
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Unordered output:
	// cmd/tool 500
	// cmd 500
	// internal/a 1700
	// internal/b 50
	// internal 1750
	// . 2480
}

// WalkDir takes the function filepath.WalkDir takes; only the import
// changes, and the calls come from several goroutines.
func ExampleWalkDir() {
	root := tree()
	defer os.RemoveAll(root)

	var mu sync.Mutex
	err := walk.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "internal" {
			return fs.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		mu.Lock()
		defer mu.Unlock()
		fmt.Println(rel)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Unordered output:
	// .
	// go.mod
	// main.go
	// cmd
	// cmd/tool
	// cmd/tool/main.go
}
