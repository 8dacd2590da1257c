package frd_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
)

// tree makes a small directory tree for the examples and returns its root.
func tree() string {
	root, err := os.MkdirTemp("", "frd-example-")
	if err != nil {
		log.Fatal(err)
	}
	for name, size := range map[string]int{
		"README.md":           120,
		"main.go":             2048,
		"docs/guide.md":       4000,
		"docs/img/logo.png":   9000,
		"internal/util.go":    512,
		"internal/util_test.": 300,
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.Symlink("README.md", filepath.Join(root, "LINK")); err != nil {
		log.Fatal(err)
	}
	return root
}

func ExampleReadDir() {
	root := tree()
	defer os.RemoveAll(root)

	entries, err := frd.ReadDir(root)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		switch {
		case e.Type.IsRegular():
			fmt.Printf("%-10s %5d bytes\n", e.Name, e.Size)
		case e.Type.IsDir():
			fmt.Printf("%-10s directory\n", e.Name)
		default:
			fmt.Printf("%-10s %v\n", e.Name, e.Type)
		}
	}
	// Output:
	// LINK       L---------
	// README.md    120 bytes
	// docs       directory
	// internal   directory
	// main.go     2048 bytes
}

// AppendDir reuses the slice it is given: listing many directories
// allocates a few times per directory, not once per entry.
func ExampleAppendDir() {
	root := tree()
	defer os.RemoveAll(root)

	var entries []frd.Entry
	for _, dir := range []string{"docs", "internal"} {
		f, err := os.Open(filepath.Join(root, dir))
		if err != nil {
			log.Fatal(err)
		}
		entries, err = frd.AppendDir(entries[:0], f) // kernel order
		_ = f.Close()
		if err != nil {
			log.Fatal(err)
		}
		frd.SortByName(entries)
		var total int64
		for _, e := range entries {
			total += e.Size
		}
		fmt.Printf("%s: %d entries, %d bytes in files\n", dir, len(entries), total)
	}
	// Output:
	// docs: 2 entries, 4000 bytes in files
	// internal: 2 entries, 812 bytes in files
}

// A Lister with Names set lists names and types alone: on Linux it skips
// the stat per file.
func ExampleLister_names() {
	root := tree()
	defer os.RemoveAll(root)

	f, err := os.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	l := frd.Lister{Names: true}
	entries, err := l.AppendDir(nil, f)
	if err != nil {
		log.Fatal(err)
	}
	frd.SortByName(entries)
	for _, e := range entries {
		fmt.Println(e.Name, e.Type.IsDir(), e.Size)
	}
	// Output:
	// LINK false 0
	// README.md false 0
	// docs true 0
	// internal true 0
	// main.go false 0
}

// A Lister with ReuseNames keeps the names in storage it reuses, like
// bufio.Scanner.Bytes: each call's names are valid until the next call,
// and a name kept longer is copied.
func ExampleLister_reuseNames() {
	root := tree()
	defer os.RemoveAll(root)

	l := frd.Lister{ReuseNames: true}
	var entries []frd.Entry
	var dirs []string // kept past the next call: copied
	for _, dir := range []string{root, filepath.Join(root, "docs")} {
		f, err := os.Open(dir)
		if err != nil {
			log.Fatal(err)
		}
		entries, err = l.AppendDir(entries[:0], f)
		f.Close()
		if err != nil {
			log.Fatal(err)
		}
		for _, e := range entries {
			if e.Type.IsDir() {
				dirs = append(dirs, strings.Clone(e.Name))
			}
		}
	}
	slices.Sort(dirs)
	fmt.Println(dirs)
	// Output:
	// [docs img internal]
}

// Entry is comparable: a file changed since the last listing is one !=.
func Example_changeDetection() {
	root := tree()
	defer os.RemoveAll(root)

	before, err := frd.ReadDir(root)
	if err != nil {
		log.Fatal(err)
	}
	previous := map[string]frd.Entry{}
	for _, e := range before {
		previous[e.Name] = e
	}

	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "main.go"), later, later); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "new.txt"), nil, 0o644); err != nil {
		log.Fatal(err)
	}

	after, err := frd.ReadDir(root)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range after {
		if e.Type.IsRegular() && previous[e.Name] != e {
			fmt.Println("changed:", e.Name)
		}
	}
	// Output:
	// changed: main.go
	// changed: new.txt
}

// A small tree walk: one Lister for the whole walk, and one result slice
// per depth, reused from directory to directory.
func Example_walk() {
	root := tree()
	defer os.RemoveAll(root)

	var l frd.Lister
	var levels [][]frd.Entry
	var walk func(dir, rel string, depth int) int64
	walk = func(dir, rel string, depth int) int64 {
		f, err := os.Open(dir)
		if err != nil {
			log.Fatal(err)
		}
		if depth == len(levels) {
			levels = append(levels, nil)
		}
		entries, err := l.AppendDir(levels[depth][:0], f)
		_ = f.Close()
		if err != nil {
			log.Fatal(err)
		}
		levels[depth] = entries
		frd.SortByName(entries)
		var total int64
		for _, e := range entries {
			total += e.Size // zero for directories and links
			if e.Type.IsDir() {
				total += walk(filepath.Join(dir, e.Name), filepath.Join(rel, e.Name), depth+1)
			}
		}
		fmt.Printf("%6d %s\n", total, rel)
		return total
	}
	walk(root, ".", 0)
	// Output:
	//   9000 docs/img
	//  13000 docs
	//    812 internal
	//  15980 .
}
