package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestInternalImportsAsDocumented: each of fdu's packages imports none of
// those its doc comment rules out, so that the scan, the report and the
// browser stay apart, and only the command starts the interactive modes.
func TestInternalImportsAsDocumented(t *testing.T) {
	const internal = "github.com/pbednarcik/flexreaddir/cmd/fdu/internal/"
	forbidden := map[string][]string{
		"du":          {"report", "browse", "dutree", "interactive"},
		"report":      {"browse", "dutree", "interactive"},
		"browse":      {"du", "report", "interactive"},
		"dutree":      {"du", "report", "browse", "interactive"},
		"interactive": {"report"},
		"message":     {"du", "report", "browse", "dutree", "interactive", "units"},
		"units":       {"du", "report", "browse", "dutree", "interactive"},
		"output":      {"du", "report", "browse", "dutree", "interactive", "message", "units"},
	}
	for pkg, never := range forbidden {
		files, err := filepath.Glob(filepath.Join("internal", pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", pkg, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if name, ok := strings.CutPrefix(path, internal); ok && slices.Contains(never, name) {
					t.Errorf("%s imports %s", f, name)
				}
			}
		}
	}
}

// maxMainLines bounds package main, which holds the flags and the wiring:
// what grows past it belongs in an internal package.
const maxMainLines = 1200

// TestMainPackageSize: package main stays under maxMainLines lines.
func TestMainPackageSize(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(b, []byte("\n"))
	}
	if total > maxMainLines {
		t.Errorf("package main is %d lines, over %d", total, maxMainLines)
	}
}
