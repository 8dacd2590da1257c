package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/frd"
)

func lsTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"b.txt": "hello", "a.go": "package a\n", "odd\nname": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.go", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLs(t *testing.T) {
	dir := lsTree(t)
	var out, errb bytes.Buffer
	if code := run([]string{"ls", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []struct{ kind, name string }{{"-", "a.go"}, {"-", "b.txt"}, {"L", "link"}, {"-", `"odd\nname"`}, {"d", "sub"}}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines:\n%s", len(lines), out.String())
	}
	for i, w := range want {
		f := strings.Fields(lines[i])
		if f[0] != w.kind || f[len(f)-1] != w.name {
			t.Errorf("line %q, want kind %s name %s", lines[i], w.kind, w.name)
		}
	}
	if f := strings.Fields(lines[1]); f[1] != "5" {
		t.Errorf("b.txt line %q: want size 5", lines[1])
	}
}

func TestLsJSON(t *testing.T) {
	dir := lsTree(t)
	var out, errb bytes.Buffer
	if code := run([]string{"ls", "--json", dir, dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want, err := frd.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	for range 2 {
		var got jsonDir
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if got.Dir != dir || len(got.Entries) != len(want) {
			t.Fatalf("got %+v", got)
		}
		for i, e := range got.Entries {
			w := want[i]
			if e.Name != w.Name || e.Type != typeName(w.Type) || e.Size != w.Size || e.FileID != w.FileID || e.Links != w.Links {
				t.Errorf("entry %d: %+v, want %+v", i, e, w)
			}
			if w.Type.IsRegular() && (e.ModTime == nil || e.ModTime.UnixNano() != w.ModTimeNanos) {
				t.Errorf("%s: mtime %v, want %d", e.Name, e.ModTime, w.ModTimeNanos)
			}
		}
	}
}

func TestLsErrors(t *testing.T) {
	dir := lsTree(t)
	var out, errb bytes.Buffer
	code := run([]string{"ls", filepath.Join(dir, "missing"), dir}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no such file or directory") || !strings.Contains(out.String(), "a.go") {
		t.Errorf("exit %d, stderr %q, stdout %q: want 1, the error, and the other listing", code, errb.String(), out.String())
	}
	if code := run([]string{"frobnicate"}, &out, &errb); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
	if code := run([]string{"ls", "--bogus"}, &out, &errb); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
}

// TestJSONNamesLossless: frd ls --json keeps names that are not UTF-8
// apart, in "name_bytes".
func TestJSONNamesLossless(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("names must be UTF-8 here")
	}
	dir := t.TempDir()
	names := []string{"a\xff", "a\xfe", "a\uFFFD"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"ls", "--json", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var d jsonDir
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range d.Entries {
		name := e.Name
		if e.NameBytes != nil {
			name = string(e.NameBytes)
		}
		got[name] = true
	}
	for _, n := range names {
		if !got[n] {
			t.Errorf("%q not read back from %s", n, out.String())
		}
	}
}

// TestFind: frd find prints every path of a tree, the root first, once
// each, as find does.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	want := []string{dir}
	for _, p := range []string{"a", "a/b", "a/b/c", "d"} {
		must(t, os.Mkdir(filepath.Join(dir, p), 0o755))
		want = append(want, filepath.Join(dir, p))
	}
	for i := range 3000 {
		p := filepath.Join(dir, "a", fmt.Sprintf("f%04d", i))
		must(t, os.WriteFile(p, nil, 0o644))
		want = append(want, p)
	}
	if os.Symlink("nowhere", filepath.Join(dir, "d", "link")) == nil { // not everywhere on Windows
		want = append(want, filepath.Join(dir, "d", "link"))
	}
	var out, errb bytes.Buffer
	if runtime.GOOS != "windows" { // no newline in a Windows name
		must(t, os.WriteFile(filepath.Join(dir, "d", "new\nline"), nil, 0o644))
		want = append(want, filepath.Join(dir, "d", "new\nline"))
	}
	if code := run([]string{"find", "-0", "-j", "3", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
	if got[0] != dir {
		t.Errorf("first line %q, want the root", got[0])
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%d paths, want %d", len(got), len(want))
	}
	out.Reset()
	if code := run([]string{"find", "-c", dir, filepath.Join(dir, "a")}, &out, &errb); code != 0 {
		t.Fatalf("find -c: exit %d: %s", code, errb.String())
	}
	// The tree, then a again: a, a/b, a/b/c and the files.
	if got, want := out.String(), fmt.Sprintln(len(want)+3003); got != want {
		t.Errorf("find -c of the tree and of a: %q, want %q", got, want)
	}
	out.Reset()
	if code := run([]string{"find", "-c", filepath.Join(dir, "missing")}, &out, &errb); code != 1 || out.String() != "0\n" {
		t.Errorf("find -c of a missing DIR: exit %d, %q; want 1 and 0, as find | wc -l", code, out.String())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
