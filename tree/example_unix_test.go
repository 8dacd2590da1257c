//go:build linux || darwin

package tree_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/pbednarcik/flexreaddir/tree"
)

// A small source tree: a file, a subdirectory and a link inside it.
func exampleSource() (src, base string) {
	base, err := os.MkdirTemp("", "tree-example-")
	if err != nil {
		log.Fatal(err)
	}
	src = filepath.Join(base, "src")
	os.MkdirAll(filepath.Join(src, "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "sub", "data"), []byte("hello"), 0o644)
	os.Symlink("sub/data", filepath.Join(src, "link"))
	return src, base
}

func ExampleClone() {
	src, base := exampleSource()
	defer os.RemoveAll(base)

	res, err := tree.Clone(src, filepath.Join(base, "dst"), &tree.Options{Method: tree.Copy})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res)
	link, _ := os.Readlink(filepath.Join(base, "dst", "link"))
	data, _ := os.ReadFile(filepath.Join(base, "dst", "link"))
	fmt.Printf("link -> %s: %s\n", link, data)
	// Output:
	// copy: 2 directories, 1 files (5 bytes), 1 symbolic links, 0 special files, 0 skipped
	// link -> sub/data: hello
}

func ExampleFilesReadOnly() {
	src, base := exampleSource()
	defer os.RemoveAll(base)
	os.Chmod(filepath.Join(src, "sub", "data"), 0o755)

	n, err := tree.FilesReadOnly(src, 0)
	if err != nil {
		log.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(src, "sub", "data"))
	fmt.Println(n, "sealed:", st.Mode().Perm())
	// Output:
	// 1 sealed: -r-xr-xr-x
}

func ExampleDirsWritable() {
	src, base := exampleSource()
	defer os.RemoveAll(base)
	os.Chmod(filepath.Join(src, "sub"), 0o555)

	n, err := tree.DirsWritable(src, 0)
	if err != nil {
		log.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(src, "sub"))
	fmt.Println(n, "opened:", st.Mode().Perm())
	// Output:
	// 1 opened: -rwxr-xr-x
}
