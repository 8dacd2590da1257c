package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// viewTree makes a small tree for the view tests and returns its path.
func viewTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "v")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := treegen.Make(root, treegen.SourceCheckout.Small(3, 4, 6), 9); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a-very-long-file-name-that-will-not-fit-in-forty-columns.bin"), make([]byte, 200000), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func runView(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// apparentSizes walks root with the standard library: every regular
// file's size by path.
func apparentSizes(t *testing.T, root string) map[string]int64 {
	t.Helper()
	sizes := map[string]int64{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			sizes[p] = fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sizes
}

// jsonEntry is an entry of --json's output.
type jsonEntry struct {
	Name     string       `json:"name"`
	Size     uint64       `json:"size"`
	Inodes   uint64       `json:"inodes"`
	Dir      bool         `json:"dir"`
	Children []*jsonEntry `json:"children"`
}

func TestJSONView(t *testing.T) {
	root := viewTree(t)
	out, errs, code := runView(t, "--json", "--apparent-size", root)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var roots []*jsonEntry
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(roots) != 1 || roots[0].Name != root || !roots[0].Dir {
		t.Fatalf("roots: %+v", roots)
	}
	// Every file appears once with its size; each directory's size is its
	// own plus its children's.
	files := map[string]int64{}
	var check func(v *jsonEntry, path string)
	check = func(v *jsonEntry, path string) {
		if !v.Dir {
			files[path] = int64(v.Size)
			return
		}
		var sum uint64
		for _, c := range v.Children {
			check(c, filepath.Join(path, c.Name))
			sum += c.Size
		}
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if v.Size != sum+uint64(fi.Size()) {
			t.Errorf("%s: size %d, children and own add up to %d", path, v.Size, sum+uint64(fi.Size()))
		}
	}
	check(roots[0], root)
	want := apparentSizes(t, root)
	if len(files) != len(want) {
		t.Errorf("%d files in the JSON, %d in the tree", len(files), len(want))
	}
	for p, n := range want {
		if files[p] != n {
			t.Errorf("%s: %d in the JSON, %d on disk", p, files[p], n)
		}
	}
}

func TestLargestView(t *testing.T) {
	root := viewTree(t)
	out, _, code := runView(t, "--largest", "7", "-b", root)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	type fsz struct {
		path string
		size int64
	}
	var want []fsz
	for p, n := range apparentSizes(t, root) {
		want = append(want, fsz{p, n})
	}
	slices.SortFunc(want, func(a, b fsz) int {
		if a.size != b.size {
			return int(b.size - a.size)
		}
		return strings.Compare(a.path, b.path)
	})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for i, l := range lines {
		size, path, _ := strings.Cut(l, "\t")
		if path != want[i].path || size != strconv.FormatInt(want[i].size, 10) {
			t.Errorf("line %d: %q, want %d %s", i, l, want[i].size, want[i].path)
		}
	}
}

func TestTreeView(t *testing.T) {
	root := viewTree(t)
	t.Setenv("COLUMNS", "60")
	out, _, code := runView(t, "--tree", "--depth", "2", "--top", "3", "-b", root)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour on a pipe")
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 60 {
			t.Errorf("line of %d columns in 60: %q", n, l)
		}
	}
	// The root's children: largest first, at most three, then the rest.
	var sizes []int
	more := 0
	for _, l := range lines[1:] {
		if strings.Contains(l, "│") {
			continue // a deeper level
		}
		if strings.Contains(l, "── … ") {
			more++
			continue
		}
		n, err := strconv.Atoi(strings.Fields(l)[0])
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		sizes = append(sizes, n)
	}
	if len(sizes) != 3 || !slices.IsSortedFunc(sizes, func(a, b int) int { return b - a }) {
		t.Errorf("top level sizes %v: want three, largest first\n%s", sizes, out)
	}
	if more != 1 {
		t.Errorf("%d '… more' lines at the top level, want 1\n%s", more, out)
	}
	if !strings.Contains(out, "100.0%") {
		t.Errorf("no percentage for the root:\n%s", out)
	}
}

func TestViewConflicts(t *testing.T) {
	if _, errs, code := runView(t, "--tree", "--json", "."); code != 1 || !strings.Contains(errs, "choose one") {
		t.Errorf("--tree --json: exit %d, %q", code, errs)
	}
	if _, errs, code := runView(t, "--progress=sometimes", "."); code != 1 || !strings.Contains(errs, "--progress") {
		t.Errorf("bad --progress: exit %d, %q", code, errs)
	}
}

// TestViewsRefuseWhatTheyIgnore: an option a view would not honour is an
// error, not silently dropped.
func TestViewsRefuseWhatTheyIgnore(t *testing.T) {
	for _, args := range [][]string{{"--tree", "-S"}, {"--tree", "-c"}, {"--json", "-t", "1K"}, {"--largest=3", "--time"},
		{"--largest=3", "-0"}, {"--json", "-h"}, {"--json", "-BM"}} {
		_, errs, code := runView(t, append(args, ".")...)
		if code != 1 || !strings.Contains(errs, "does not take") {
			t.Errorf("%q: exit %d, %q", args, code, errs)
		}
	}
	if _, errs, code := runView(t, "--json", "-b", "."); code != 0 {
		t.Errorf("--json -b: exit %d, %q", code, errs)
	}
}
