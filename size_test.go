package flexreaddir_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Limits that keep every file and function readable in one sitting; a
// file or function past one is split along its jobs, not squeezed.
// cmd/fdu/layout_test.go bounds fdu's package main as a whole.
const (
	maxFileLines = 600 // a non-test Go file
	maxWalkLines = 500 // walk/walk.go, the walker's API
	maxBodyLines = 80  // a function's body, its tables aside
)

// TestSourceSizes checks the non-test Go files of every module here
// (the library, cmd and bench) against the limits above.
func TestSourceSizes(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// testdata holds fixtures, which the go tool ignores as well.
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		limit := maxFileLines
		if filepath.ToSlash(path) == "walk/walk.go" {
			limit = maxWalkLines
		}
		if lines := strings.Count(string(src), "\n"); lines > limit {
			t.Errorf("%s: %d lines, over %d", path, lines, limit)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if lines := bodyLines(fset, fd.Body); lines > maxBodyLines {
					t.Errorf("%s: %s's body is %d lines, tables aside: over %d", fset.Position(fd.Pos()), fd.Name.Name, lines, maxBodyLines)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d Go files: not run from the repository's root?", n)
	}
}

// bodyLines counts the lines between a body's braces, less those inside a
// composite literal holding no function: a table's rows are data, not
// steps to follow.
func bodyLines(fset *token.FileSet, body *ast.BlockStmt) int {
	first, last := fset.Position(body.Lbrace).Line+1, fset.Position(body.Rbrace).Line-1
	table := map[int]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || hasFunc(lit) {
			return true
		}
		for l := fset.Position(lit.Lbrace).Line + 1; l <= fset.Position(lit.Rbrace).Line; l++ {
			table[l] = true
		}
		return false
	})
	n := 0
	for l := first; l <= last; l++ {
		if !table[l] {
			n++
		}
	}
	return n
}

// hasFunc reports whether n holds a function literal.
func hasFunc(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		_, isFunc := m.(*ast.FuncLit)
		found = found || isFunc
		return !found
	})
	return found
}
