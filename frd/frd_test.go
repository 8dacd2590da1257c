package frd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeFile creates name in dir with size bytes.
func writeFile(t testing.TB, dir, name string, size int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// osListing is what os.ReadDir says of dir: names and types, sorted.
func osListing(t *testing.T, dir string) (names []string, types []fs.FileMode) {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range des {
		names = append(names, d.Name())
		types = append(types, d.Type())
	}
	return names, types
}

// checkSameAsOS checks entries, in any order, against os.ReadDir and
// os.Lstat: the same names and types, and for regular files the size and
// modification time; every other field zero for other types.
func checkSameAsOS(t *testing.T, dir string, entries []Entry) {
	t.Helper()
	entries = slices.Clone(entries)
	SortByName(entries)
	names, types := osListing(t, dir)
	if len(entries) != len(names) {
		t.Fatalf("%d entries, os.ReadDir gives %d", len(entries), len(names))
	}
	for i, e := range entries {
		if e.Name != names[i] || e.Type != types[i] {
			t.Errorf("entry %d: %q %v, os.ReadDir: %q %v", i, e.Name, e.Type, names[i], types[i])
			continue
		}
		if e.Type != 0 {
			if (e != Entry{Name: e.Name, Type: e.Type}) {
				t.Errorf("%q: a %v has fields set: %+v", e.Name, e.Type, e)
			}
			continue
		}
		fi, err := os.Lstat(filepath.Join(dir, e.Name))
		if err != nil {
			t.Fatal(err)
		}
		if e.Size != fi.Size() || e.ModTimeNanos != fi.ModTime().UnixNano() || !e.ModTime().Equal(fi.ModTime()) {
			t.Errorf("%q: size %d mtime %d, lstat: %d %d", e.Name, e.Size, e.ModTimeNanos, fi.Size(), fi.ModTime().UnixNano())
		}
		checkSys(t, e, fi)
	}
}

// everyType fills dir with one entry of each type a test can make.
func everyType(t *testing.T, dir string) {
	t.Helper()
	writeFile(t, dir, "regular", 100)
	writeFile(t, dir, "empty", 0)
	must(t, os.Mkdir(filepath.Join(dir, "dir"), 0o755))
	must(t, os.Symlink("regular", filepath.Join(dir, "link-file")))
	must(t, os.Symlink("dir", filepath.Join(dir, "link-dir")))
	must(t, os.Symlink("nothing-here", filepath.Join(dir, "link-dangling")))
	must(t, os.Symlink("link-loop", filepath.Join(dir, "link-loop")))
	makeSpecial(t, dir) // FIFO, socket and devices where the platform allows
}

// tempDir is t.TempDir, but under Wine, where os.RemoveAll fails, a
// cleanup that fails is not a test failure.
func tempDir(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "windows" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "frd-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestReadDirEmpty(t *testing.T) {
	entries, err := ReadDir(tempDir(t))
	if err != nil || entries == nil || len(entries) != 0 {
		t.Fatalf("ReadDir(empty) = %#v, %v; want an empty, non-nil slice", entries, err)
	}
	f, err := os.Open(tempDir(t))
	must(t, err)
	defer f.Close()
	entries, err = AppendDir(nil, f)
	if err != nil || len(entries) != 0 {
		t.Fatalf("AppendDir(empty) = %v, %v", entries, err)
	}
}

func TestReadDirOne(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, dir, "only", 42)
	entries, err := ReadDir(dir)
	must(t, err)
	if len(entries) != 1 || entries[0].Name != "only" || entries[0].Size != 42 || !entries[0].Type.IsRegular() {
		t.Fatalf("ReadDir = %+v", entries)
	}
	checkSameAsOS(t, dir, entries)
}

func TestEveryType(t *testing.T) {
	dir := tempDir(t)
	everyType(t, dir)
	for _, names := range []bool{false, true} {
		l := Lister{Names: names}
		f, err := os.Open(dir)
		must(t, err)
		entries, err := l.AppendDir(nil, f)
		f.Close()
		must(t, err)
		if names {
			n, ty := osListing(t, dir)
			SortByName(entries)
			for i, e := range entries {
				if e != (Entry{Name: n[i], Type: ty[i]}) {
					t.Errorf("Names: %+v, want name %q type %v only", e, n[i], ty[i])
				}
			}
			continue
		}
		checkSameAsOS(t, dir, entries)
	}
}

func TestOddNames(t *testing.T) {
	dir := tempDir(t)
	names := []string{
		"\xff\xfe not UTF-8",
		"line\nbreak",
		strings.Repeat("a", 255),
		strings.Repeat("é", 127), // 254 bytes
		" leading space",
		"tab\there",
		"...",
		"-dash",
		"\x01\x7f",
	}
	for _, n := range names {
		writeFile(t, dir, n, len(n))
	}
	entries, err := ReadDir(dir)
	must(t, err)
	checkSameAsOS(t, dir, entries)
	for _, e := range entries {
		if int(e.Size) != len(e.Name) {
			t.Errorf("%q: size %d", e.Name, e.Size)
		}
	}
}

// TestManyEntries lists more entries than one buffer holds.
func TestManyEntries(t *testing.T) {
	dir := tempDir(t)
	const n = 1500 // 1500 records of 176 bytes: five reads of 64 KiB
	for i := range n {
		writeFile(t, dir, fmt.Sprintf("%s%06d", strings.Repeat("n", 150), i), i%7)
	}
	entries, err := ReadDir(dir)
	must(t, err)
	if len(entries) != n {
		t.Fatalf("%d entries, want %d", len(entries), n)
	}
	if !slices.IsSortedFunc(entries, CompareName) {
		t.Error("ReadDir did not sort")
	}
	checkSameAsOS(t, dir, entries)

	// Names alone, on a kept Lister.
	var l Lister
	l.Names = true
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	names, err := l.AppendDir(nil, f)
	must(t, err)
	if len(names) != n {
		t.Fatalf("Names: %d entries, want %d", len(names), n)
	}
}

func TestReuseSlice(t *testing.T) {
	a, b := tempDir(t), tempDir(t)
	for i := range 50 {
		writeFile(t, a, "a"+strconv.Itoa(i), i)
	}
	for i := range 20 {
		writeFile(t, b, "b"+strconv.Itoa(i), i)
	}
	var l Lister
	list := func(dst []Entry, dir string) []Entry {
		f, err := os.Open(dir)
		must(t, err)
		defer f.Close()
		dst, err = l.AppendDir(dst, f)
		must(t, err)
		return dst
	}
	first := list(nil, a)
	checkSameAsOS(t, a, first)
	second := list(first[:0], b)
	if &second[0] != &first[0] {
		t.Error("a slice with room for the listing was not reused")
	}
	checkSameAsOS(t, b, second)
	// Appending keeps what dst held.
	both := list(list(nil, a), b)
	if len(both) != 70 || !strings.HasPrefix(both[0].Name, "a") || !strings.HasPrefix(both[69].Name, "b") {
		t.Errorf("append to a non-empty slice: %d entries", len(both))
	}
}

func TestErrors(t *testing.T) {
	dir := tempDir(t)
	file := writeFile(t, dir, "file", 1)
	for _, c := range []struct {
		path string
		err  error
	}{
		{file, syscall.ENOTDIR},
		{filepath.Join(dir, "missing"), syscall.ENOENT},
		{filepath.Join(file, "below"), syscall.ENOTDIR},
	} {
		entries, err := ReadDir(c.path)
		var pe *os.PathError
		if !errors.As(err, &pe) || pe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("ReadDir(%q) error = %#v, want *os.PathError naming it with %v", c.path, err, c.err)
		}
		if entries == nil || len(entries) != 0 {
			t.Errorf("ReadDir(%q) = %#v, want an empty slice", c.path, entries)
		}
	}
	if _, err := (&Lister{}).AppendDir(nil, nil); !errors.Is(err, os.ErrInvalid) {
		t.Errorf("AppendDir(nil file) = %v", err)
	}
}

func TestSortByName(t *testing.T) {
	es := []Entry{{Name: "b", Size: 1}, {Name: "a"}, {Name: "B"}, {Name: "b", Size: 2}, {Name: "\xff"}, {Name: "a\x00"}}
	SortByName(es)
	var got []string
	for _, e := range es {
		got = append(got, e.Name)
	}
	want := []string{"B", "a", "a\x00", "b", "b", "\xff"}
	if !slices.Equal(got, want) || es[3].Size != 1 || es[4].Size != 2 {
		t.Errorf("SortByName: %q (sizes %d, %d), want %q, stable", got, es[3].Size, es[4].Size, want)
	}
	if CompareName(Entry{Name: "a"}, Entry{Name: "b"}) >= 0 || CompareName(Entry{Name: "b", Size: 1}, Entry{Name: "b"}) != 0 {
		t.Error("CompareName compares more than names, or in the wrong order")
	}
	if n := testing.AllocsPerRun(10, func() { SortByName(es) }); n != 0 {
		t.Errorf("SortByName allocates %v times", n)
	}
}

func TestModTimeNonRegular(t *testing.T) {
	if !(Entry{Type: fs.ModeDir}).ModTime().Equal(time.Unix(0, 0)) {
		t.Error("ModTime of a directory entry is not the Unix epoch")
	}
}

// TestStat lists names, removes a file, then fills in the metadata: the
// same as a full listing of what is left.
func TestStat(t *testing.T) {
	dir := tempDir(t)
	everyType(t, dir)
	for i := range 50 {
		writeFile(t, dir, "f"+strconv.Itoa(i), i)
	}
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	l := Lister{Names: true}
	names, err := l.AppendDir(nil, f)
	must(t, err)
	must(t, os.Remove(filepath.Join(dir, "f7")))
	must(t, os.Remove(filepath.Join(dir, "regular")))
	var gone []string
	other := Lister{Vanished: func(name string) { gone = append(gone, name) }}
	half := len(names) / 2
	a, err := other.Stat(names[:half], f.Fd(), dir)
	must(t, err)
	b, err := other.Stat(names[half:], f.Fd(), dir)
	must(t, err)
	checkSameAsOS(t, dir, append(slices.Clone(a), b...))
	slices.Sort(gone)
	if !slices.Equal(gone, []string{"f7", "regular"}) {
		t.Errorf("Vanished was told %q, want [f7 regular]", gone)
	}
}

// TestReuseNames lists, with one Lister under ReuseNames, a directory
// whose names fill several reads and outgrow the storage within one call,
// then a small one, then the big one again: every call's names are right,
// during that call, against os.ReadDir's.
func TestReuseNames(t *testing.T) {
	big, small := tempDir(t), tempDir(t)
	for i := range 5000 {
		writeFile(t, big, fmt.Sprintf("a-rather-long-file-name-%05d.txt", i), 0)
	}
	for i := range 3 {
		writeFile(t, small, fmt.Sprintf("s%d", i), 0)
	}
	want := func(dir string) []string {
		des, err := os.ReadDir(dir)
		must(t, err)
		var names []string
		for _, de := range des {
			names = append(names, de.Name())
		}
		return names
	}
	l := Lister{ReuseNames: true}
	var entries []Entry
	for _, dir := range []string{big, small, big, small} {
		f, err := os.Open(dir)
		must(t, err)
		entries, err = l.AppendDir(entries[:0], f)
		f.Close()
		must(t, err)
		SortByName(entries)
		got := make([]string, len(entries))
		for i, e := range entries {
			got[i] = e.Name
		}
		if w := want(dir); !slices.Equal(got, w) {
			t.Fatalf("%s: %d names, want %d; first differing at %d", dir, len(got), len(w), firstDiff(got, w))
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestAppendPart reads a directory a part at a time: together the parts
// are the directory, once each; on Linux there is more than one part for
// a directory larger than the buffer.
func TestAppendPart(t *testing.T) {
	dir := tempDir(t)
	for i := range 5000 {
		writeFile(t, dir, fmt.Sprintf("file-%05d", i), i%7)
	}
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	l := Lister{ReuseNames: true}
	var all []Entry
	parts := 0
	for {
		part, done, err := l.AppendPart(nil, f.Fd(), dir)
		must(t, err)
		for _, e := range part {
			e.Name = strings.Clone(e.Name) // valid until the next call only
			all = append(all, e)
		}
		parts++
		if done {
			break
		}
		if parts > 10000 {
			t.Fatal("never done")
		}
	}
	if runtime.GOOS == "linux" && parts < 3 {
		t.Errorf("%d parts for 5,000 entries, want one per 64 KiB", parts)
	}
	checkSameAsOS(t, dir, all)
}

// TestSortUnique: the index sort gives slices.SortFunc's order, for every
// size up to 300 and shuffled names.
func TestSortUnique(t *testing.T) {
	for n := range 300 {
		var es []Entry
		for i := range n {
			es = append(es, Entry{Name: fmt.Sprintf("n%x-%d", (i*7919)%1000, i), Size: int64(i)})
		}
		want := slices.Clone(es)
		slices.SortFunc(want, CompareName)
		sortUnique(es)
		if !slices.Equal(es, want) {
			t.Fatalf("%d entries: not sorted as SortFunc sorts", n)
		}
	}
}

// TestListingSmall: zero, one and two entries, by ReadDir (sorted) and by
// AppendPart, which takes a small directory in one part, found done, and
// after it finds nothing more.
func TestListingSmall(t *testing.T) {
	for n := range 3 {
		dir := tempDir(t)
		var want []string
		for i := n - 1; i >= 0; i-- { // created in descending order
			writeFile(t, dir, fmt.Sprintf("f%d", i), i+1)
		}
		for i := range n {
			want = append(want, fmt.Sprintf("f%d", i))
		}
		entries, err := ReadDir(dir)
		must(t, err)
		var got []string
		for i, e := range entries {
			got = append(got, e.Name)
			if e.Size != int64(i+1) {
				t.Errorf("%d entries: %s has size %d, want %d", n, e.Name, e.Size, i+1)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("ReadDir of %d entries: %q, want %q", n, got, want)
		}
		if runtime.GOOS != "linux" {
			continue
		}
		f, err := os.Open(dir)
		must(t, err)
		var l Lister
		part, done, err := l.AppendPart(nil, f.Fd(), dir)
		must(t, err)
		if !done || len(part) != n {
			t.Errorf("%d entries: a part of %d, done %v; want all in one, done", n, len(part), done)
		}
		checkSameAsOS(t, dir, part)
		part, done, err = l.AppendPart(part[:0], f.Fd(), dir)
		if err != nil || !done || len(part) != 0 {
			t.Errorf("%d entries: after the end, %d more, done %v, %v", n, len(part), done, err)
		}
		f.Close()
	}
}
