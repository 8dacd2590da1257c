package frd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// checkSys checks the fields beyond size and mtime against lstat.
func checkSys(t *testing.T, e Entry, fi fs.FileInfo) {
	t.Helper()
	st := fi.Sys().(*syscall.Stat_t)
	want := Entry{
		Name:            e.Name,
		Size:            int64(st.Size),
		ModTimeNanos:    st.Mtim.Nano(),
		ChangeTimeNanos: st.Ctim.Nano(),
		FileID:          uint64(st.Ino),
		Allocated:       int64(st.Blocks) * 512,
		Links:           uint64(st.Nlink), // uint32 on arm64
		Device:          uint64(st.Dev),
	}
	if e != want {
		t.Errorf("%q:\n got %+v\nwant %+v (lstat)", e.Name, e, want)
	}
}

// makeSpecial makes a FIFO, a socket and, as root, a character and a block
// device in dir.
func makeSpecial(t *testing.T, dir string) {
	t.Helper()
	must(t, unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	ln, err := net.Listen("unix", filepath.Join(dir, "socket"))
	must(t, err)
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if os.Geteuid() == 0 {
		must(t, unix.Mknod(filepath.Join(dir, "chardev"), unix.S_IFCHR|0o600, int(unix.Mkdev(1, 3))))
		must(t, unix.Mknod(filepath.Join(dir, "blockdev"), unix.S_IFBLK|0o600, int(unix.Mkdev(7, 200))))
	}
}

func TestHardLinks(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "one", 10)
	must(t, os.Link(p, filepath.Join(dir, "two")))
	must(t, os.Link(p, filepath.Join(dir, "three")))
	entries, err := ReadDir(dir)
	must(t, err)
	checkSameAsOS(t, dir, entries)
	for _, e := range entries {
		if e.Links != 3 || e.FileID != entries[0].FileID || e.Device != entries[0].Device {
			t.Errorf("%+v: want 3 links to one file", e)
		}
	}
}

func TestSparse(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "sparse"))
	must(t, err)
	must(t, f.Truncate(64<<20))
	_, err = f.WriteAt([]byte("x"), 1<<20)
	must(t, err)
	must(t, f.Close())
	writeFile(t, dir, "dense", 1<<16)
	entries, err := ReadDir(dir)
	must(t, err)
	checkSameAsOS(t, dir, entries)
	if s := entries[1]; s.Name != "sparse" || s.Size != 64<<20 || s.Allocated >= s.Size {
		t.Errorf("sparse file: %+v, want allocation below its size", s)
	}
	if d := entries[0]; d.Allocated < d.Size {
		t.Errorf("dense file: %+v, want allocation of at least its size", d)
	}
}

// TestEveryField gives a file a modification time an hour before its
// change time, two links and a size unlike its allocation, so that each
// field of its Entry is told apart from the others, against lstat.
func TestEveryField(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "f", 5000)
	must(t, os.Link(p, filepath.Join(dir, "g")))
	old := time.Now().Add(-time.Hour).Add(123456789)
	must(t, os.Chtimes(p, old, old))
	entries, err := ReadDir(dir)
	must(t, err)
	fi, err := os.Lstat(p)
	must(t, err)
	if len(entries) != 2 || entries[0].Name != "f" {
		t.Fatalf("entries %+v", entries)
	}
	checkSys(t, entries[0], fi)
	if e := entries[0]; e.ModTimeNanos == e.ChangeTimeNanos || e.Links != 2 || e.Size == e.Allocated {
		t.Errorf("%+v: fields not told apart", e)
	}
}

// TestRewind reads part of a directory with a raw getdents64, then lists the
// rest, and all of it under Rewind.
func TestRewind(t *testing.T) {
	dir := t.TempDir()
	const n = 300
	for i := range n {
		writeFile(t, dir, fmt.Sprintf("file-%03d", i), i)
	}
	partial := func() (*os.File, int) {
		f, err := os.Open(dir)
		must(t, err)
		buf := make([]byte, 1024)
		m, err := unix.Getdents(int(f.Fd()), buf)
		must(t, err)
		recs, _, err := parseDirent64(nil, buf[:m])
		must(t, err)
		if len(recs) == 0 || len(recs) >= n {
			t.Fatalf("a 1 KiB read gave %d entries", len(recs))
		}
		return f, len(recs)
	}

	f, read := partial()
	rest, err := (&Lister{}).AppendDir(nil, f)
	must(t, err)
	if len(rest) != n-read {
		t.Errorf("after a partial read of %d: %d entries, want %d", read, len(rest), n-read)
	}
	// Rewind on the same descriptor, now at its end, lists it all again.
	l := Lister{Rewind: true}
	all, err := l.AppendHandle(nil, f.Fd(), dir)
	must(t, err)
	checkSameAsOS(t, dir, all)
	f.Close()

	f, _ = partial()
	defer f.Close()
	all, err = l.AppendDir(all[:0], f)
	must(t, err)
	checkSameAsOS(t, dir, all)

	// A closed descriptor: lseek fails, naming the directory.
	g, err := os.Open(dir)
	must(t, err)
	fd := g.Fd()
	g.Close()
	if _, err := l.AppendHandle(nil, fd, dir); !errors.Is(err, unix.EBADF) || !strings.Contains(err.Error(), "lseek "+dir) {
		t.Errorf("Rewind on a closed descriptor: %v", err)
	}
	if _, err := (&Lister{}).AppendHandle(nil, fd, dir); !errors.Is(err, unix.EBADF) || !strings.Contains(err.Error(), "getdents64 "+dir) {
		t.Errorf("AppendHandle on a closed descriptor: %v", err)
	}
}

// TestRemovedBeforeStat removes names between the read and their stats:
// they are left out, and the rest listed.
func TestRemovedBeforeStat(t *testing.T) {
	dir := t.TempDir()
	for i := range 10 {
		writeFile(t, dir, fmt.Sprintf("f%d", i), i)
	}
	must(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	testHookAfterRead = func() {
		must(t, os.Remove(filepath.Join(dir, "f3")))
		must(t, os.Remove(filepath.Join(dir, "f7")))
		must(t, os.Remove(filepath.Join(dir, "d"))) // not stat'ed: still listed
	}
	defer func() { testHookAfterRead = nil }()
	entries, err := ReadDir(dir)
	must(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	want := []string{"d", "f0", "f1", "f2", "f4", "f5", "f6", "f8", "f9"}
	if !slices.Equal(names, want) {
		t.Errorf("got %q, want %q", names, want)
	}
}

// TestReplacedBeforeStat swaps a regular file for a directory between the
// read and its stat: the stat's type wins, and a directory has no size.
func TestReplacedBeforeStat(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "x", 5)
	testHookAfterRead = func() {
		must(t, os.Remove(filepath.Join(dir, "x")))
		must(t, os.Mkdir(filepath.Join(dir, "x"), 0o755))
	}
	defer func() { testHookAfterRead = nil }()
	entries, err := ReadDir(dir)
	must(t, err)
	if len(entries) != 1 || entries[0] != (Entry{Name: "x", Type: fs.ModeDir}) {
		t.Errorf("got %+v, want a bare directory entry", entries)
	}
}

// The unprivileged helper: the test binary runs itself as nobody to list a
// directory that may be read but not searched, which root always may search.
const helperEnv = "FRD_TEST_HELPER_LIST"

type helperResult struct {
	Names   []string
	Types   []fs.FileMode
	Sizes   []int64
	Err     string
	EACCES  bool
	ErrPath string
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		f, err := os.Open(dir)
		if err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		l := Lister{Names: os.Getenv(helperEnv+"_NAMES") != ""}
		entries, err := l.AppendDir(nil, f)
		var r helperResult
		for _, e := range entries {
			r.Names = append(r.Names, e.Name)
			r.Types = append(r.Types, e.Type)
			r.Sizes = append(r.Sizes, e.Size)
		}
		if err != nil {
			r.Err = err.Error()
			r.EACCES = errors.Is(err, unix.EACCES)
			var pe *os.PathError
			if errors.As(err, &pe) {
				r.ErrPath = pe.Path
			}
		}
		_ = json.NewEncoder(os.Stdout).Encode(r)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestNotSearchable(t *testing.T) {
	top := testfs.WorldDir(t)
	dir := filepath.Join(top, "r-only")
	must(t, os.Mkdir(dir, 0o755))
	must(t, os.Mkdir(filepath.Join(dir, "subdir"), 0o755))
	must(t, os.Symlink("x", filepath.Join(dir, "link")))
	writeFile(t, dir, "file", 3)
	must(t, os.Chmod(dir, 0o744)) // others may read, not search

	run := func(names bool) helperResult {
		env := []string{helperEnv + "=" + dir}
		if names {
			env = append(env, helperEnv+"_NAMES=1")
		}
		out := testfs.RunAsNobody(t, top, env...)
		// The first JSON value: a binary built for coverage adds to its
		// output that it could not write there as nobody.
		var r helperResult
		if err := json.NewDecoder(bytes.NewReader(out)).Decode(&r); err != nil {
			t.Fatalf("helper said %q: %v", out, err)
		}
		return r
	}

	// The full listing fails at the file, the one name it must stat, naming
	// it; what came before it in the kernel's order is returned with it.
	r := run(false)
	if !r.EACCES || r.ErrPath != filepath.Join(dir, "file") {
		t.Errorf("full listing: error %q (path %q), want EACCES naming the file", r.Err, r.ErrPath)
	}
	if slices.Contains(r.Names, "file") || len(r.Names) > 2 {
		t.Errorf("full listing returned %q", r.Names)
	}
	// Names needs no stat: it lists everything, with types from d_type.
	r = run(true)
	slices.Sort(r.Names)
	if r.Err != "" || !slices.Equal(r.Names, []string{"file", "link", "subdir"}) {
		t.Errorf("Names listing: %q, %q; want all three names", r.Names, r.Err)
	}
}

// TestUnknownDType lists a file system that keeps no d_type (ext4 made
// without its filetype feature): every type comes from statx instead.
func TestUnknownDType(t *testing.T) {
	dir := testfs.LoopMount(t, "ext4", "-O", "^filetype")
	everyType(t, dir)
	p := writeFile(t, dir, "linked", 9)
	must(t, os.Link(p, filepath.Join(dir, "linked2")))

	// Make sure the kernel really reports DT_UNKNOWN here.
	f, err := os.Open(dir)
	must(t, err)
	buf := make([]byte, bufSize)
	n, err := unix.Getdents(int(f.Fd()), buf)
	must(t, err)
	f.Close()
	recs, _, err := parseDirent64(nil, buf[:n])
	must(t, err)
	for _, r := range recs {
		if r.typ != dtUnknown {
			t.Fatalf("d_type %d on an ext4 without filetype", r.typ)
		}
	}

	entries, err := ReadDir(dir)
	must(t, err)
	checkSameAsOS(t, dir, entries)

	l := Lister{Names: true}
	f, err = os.Open(dir)
	must(t, err)
	defer f.Close()
	names, err := l.AppendDir(nil, f)
	must(t, err)
	SortByName(names)
	for i, e := range names {
		if e != (Entry{Name: entries[i].Name, Type: entries[i].Type}) {
			t.Errorf("Names: %+v, want %q %v alone", e, entries[i].Name, entries[i].Type)
		}
	}
}

// TestAllocs holds the allocation counts the package promises for a
// directory of 1,000 files: at most 2 with a kept Lister and a reused
// slice (the names and, once, the slice), and a few more when the function
// AppendDir opens the directory too.
func TestAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("skipping in short mode and under the race detector")
	}
	dir := t.TempDir()
	for i := range 1000 {
		writeFile(t, dir, fmt.Sprintf("file-%04d.txt", i), 10)
	}
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	l := Lister{Rewind: true}
	entries, err := l.AppendDir(nil, f)
	must(t, err)
	kept := testing.AllocsPerRun(20, func() {
		entries, err = l.AppendDir(entries[:0], f)
	})
	must(t, err)
	if kept > 1 {
		t.Errorf("kept Lister, reused slice: %v allocations per listing, want at most 1", kept)
	}
	fn := testing.AllocsPerRun(20, func() {
		g, err := os.Open(dir)
		must(t, err)
		entries, err = AppendDir(nil, g)
		must(t, err)
		g.Close()
	})
	if fn > 5 {
		t.Errorf("function AppendDir with open and close: %v allocations, want at most 5", fn)
	}
	rd := testing.AllocsPerRun(20, func() { entries, err = ReadDir(dir) })
	if rd > 5 {
		t.Errorf("ReadDir: %v allocations, want at most 5", rd)
	}
	reuse := Lister{Rewind: true, ReuseNames: true}
	entries, err = reuse.AppendDir(entries[:0], f)
	must(t, err)
	reused := testing.AllocsPerRun(20, func() {
		entries, err = reuse.AppendDir(entries[:0], f)
	})
	must(t, err)
	if reused != 0 {
		t.Errorf("kept Lister under ReuseNames: %v allocations per listing, want 0", reused)
	}
	t.Logf("allocations for 1,000 files: kept Lister %v (ReuseNames %v), AppendDir %v, ReadDir %v", kept, reused, fn, rd)
}

// TestWithoutStatx runs the Linux listing tests again as on a kernel
// without statx (before 4.11) or behind a seccomp filter that refuses it:
// through fstatat.
func TestWithoutStatx(t *testing.T) {
	noStatx.Store(true)
	defer noStatx.Store(false)
	for name, test := range map[string]func(*testing.T){
		"EveryType":          TestEveryType,
		"OddNames":           TestOddNames,
		"ManyEntries":        TestManyEntries,
		"Stat":               TestStat,
		"HardLinks":          TestHardLinks,
		"Sparse":             TestSparse,
		"EveryField":         TestEveryField,
		"RemovedBeforeStat":  TestRemovedBeforeStat,
		"ReplacedBeforeStat": TestReplacedBeforeStat,
		"UnknownDType":       TestUnknownDType,
	} {
		t.Run(name, test)
	}
	if !noStatx.Load() {
		t.Fatal("the fallback was turned off")
	}
}

// TestStatOrderKeepsListingOrder: a full listing keeps the kernel's order,
// the one a names-only listing of the same directory gives (ext4 lists by
// hash, not by inode), whatever order its files are stat'ed in.
func TestStatOrderKeepsListingOrder(t *testing.T) {
	dir := tempDir(t)
	for i := range 3000 {
		writeFile(t, dir, fmt.Sprintf("n%04d", (i*7919)%3000), i%5)
	}
	list := func(names bool) []string {
		f, err := os.Open(dir)
		must(t, err)
		defer f.Close()
		l := Lister{Names: names}
		es, err := l.AppendDir(nil, f)
		must(t, err)
		var s []string
		for _, e := range es {
			s = append(s, e.Name)
		}
		return s
	}
	if full, names := list(false), list(true); !slices.Equal(full, names) {
		t.Errorf("the full listing's order is not the kernel's")
	}
	checkSameAsOS(t, dir, mustList(t, dir))
}

func mustList(t *testing.T, dir string) []Entry {
	t.Helper()
	es, err := ReadDir(dir)
	must(t, err)
	return es
}

// TestEveryNameLength lists a directory with a name of every length from 1
// to 255, files and directories alternating, so names end at every place
// of a word and of the kernel's records: every listing mode gives os's
// names, the full one its metadata too.
func TestEveryNameLength(t *testing.T) {
	dir := t.TempDir()
	for n := 1; n <= 255; n++ {
		name := strings.Repeat(string(rune('a'+n%26)), n)
		if n%2 == 0 {
			must(t, os.Mkdir(filepath.Join(dir, name), 0o755))
		} else {
			writeFile(t, dir, name, n)
		}
	}
	entries, err := ReadDir(dir)
	must(t, err)
	checkSameAsOS(t, dir, entries)
	for _, reuse := range []bool{false, true} {
		l := Lister{Names: true, ReuseNames: reuse}
		f, err := os.Open(dir)
		must(t, err)
		names, err := l.AppendDir(nil, f)
		f.Close()
		must(t, err)
		SortByName(names)
		if len(names) != len(entries) {
			t.Fatalf("ReuseNames %v: %d names, want %d", reuse, len(names), len(entries))
		}
		for i, e := range names {
			if e.Name != entries[i].Name || e.Type != entries[i].Type {
				t.Errorf("ReuseNames %v: names-only entry %+v, want %q type %v", reuse, e, entries[i].Name, entries[i].Type)
			}
		}
	}
}

// TestRemovedKeepsOrder removes every third file between the read and the
// stats: the entries left keep the kernel's order, as a names-only listing
// of the same directory gives it, each with its own metadata.
func TestRemovedKeepsOrder(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 {
		if i%10 == 5 {
			must(t, os.Mkdir(filepath.Join(dir, fmt.Sprintf("d%03d", i)), 0o755))
		} else {
			writeFile(t, dir, fmt.Sprintf("f%03d", i), i)
		}
	}
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	names, err := (&Lister{Names: true}).AppendDir(nil, f)
	must(t, err)
	var want []string
	removed := map[string]bool{}
	for i, e := range names {
		if e.Type == 0 && i%3 == 0 {
			removed[e.Name] = true
			continue
		}
		want = append(want, e.Name)
	}
	testHookAfterRead = func() {
		for name := range removed {
			must(t, os.Remove(filepath.Join(dir, name)))
		}
	}
	defer func() { testHookAfterRead = nil }()
	var gone []string
	l := Lister{Rewind: true, Vanished: func(name string) { gone = append(gone, name) }}
	entries, err := l.AppendDir(make([]Entry, 0, 1), f)
	must(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q,\nwant %q", got, want)
	}
	if len(gone) != len(removed) {
		t.Errorf("Vanished told %d names, want %d", len(gone), len(removed))
	}
	testHookAfterRead = nil
	checkSameAsOS(t, dir, entries)
}

// TestErrorLeavesNoStaleEntries makes the stats of one read fail (the
// directory readable but, once the read is done, no longer searchable):
// the call returns the error, and nothing of that read is left past the
// slice's length to hold its names.
func TestErrorLeavesNoStaleEntries(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to drop the right to search between the read and its stats")
	}
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	for i := range 50 {
		writeFile(t, dir, fmt.Sprintf("f%02d", i), i)
	}
	must(t, os.Chmod(dir, 0o744)) // others may read, not search
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	testHookAfterRead = func() { must(t, syscall.Setresuid(-1, 65534, -1)) }
	es, err := (&Lister{}).AppendDir(nil, f)
	testHookAfterRead = nil
	must(t, syscall.Setresuid(-1, 0, -1))
	if !errors.Is(err, unix.EACCES) {
		t.Fatalf("err %v, want EACCES", err)
	}
	for i, e := range es[len(es):cap(es)] {
		if e != (Entry{}) {
			t.Errorf("stale entry %d past length %d: %q", len(es)+i, len(es), e.Name)
		}
	}
}

// TestCopyName copies names of every length up to 255 out of a buffer
// and into one that have only wordSlack bytes past them: the name arrives
// whole, and nothing before it is touched.
func TestCopyName(t *testing.T) {
	for n := 1; n <= 255; n++ {
		src := make([]byte, n+wordSlack)
		for i := range n {
			src[i] = byte('a' + i%26)
		}
		dst := bytes.Repeat([]byte{'#'}, 3+n+wordSlack)
		copyName(dst[3:], src, n)
		if string(dst[:3]) != "###" || !bytes.Equal(dst[3:3+n], src[:n]) {
			t.Fatalf("length %d: got %q", n, dst)
		}
	}
}
