package report

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// duLines runs the report of files under dc with --inodes, and returns
// its lines with each message, prefixed "E ", where it was printed.
func duLines(ctx context.Context, dc *du.Config, files ...string) string {
	s := du.NewScanner(dc, nil)
	var out strings.Builder
	w := bufio.NewWriter(&out)
	msg := func(m string) { w.WriteString("E " + m + "\n") } // in order with the lines, as du's flush before each
	Du(ctx, &Config{Inodes: true, Unit: units.BlockSize{Size: 1}}, s, s.StatArgs(files, ""), w, Messages{Error: msg, Note: msg})
	w.Flush()
	return out.String()
}

// listsXFirst reports whether dir lists its entry x before its entry y:
// du meets a directory's entries in the order it lists them (fts sorts
// none of fewer than 10,000), which is the file system's.
func listsXFirst(t *testing.T, dir string) bool {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Index(names, "x") < slices.Index(names, "y")
}

// mkPair makes dir holding x and y of the kinds given: "dang" a link to
// nowhere, "dir" a directory, "file" an empty file.
func mkPair(t *testing.T, dir, x, y string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, kind := range map[string]string{"x": x, "y": y} {
		p := filepath.Join(dir, name)
		var err error
		switch kind {
		case "dang":
			err = os.Symlink("/nonexistent", p)
		case "dir":
			err = os.Mkdir(p, 0o755)
		case "file":
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestErrorsAmongEntriesWhereDuMeetsThem: under -L a dangling link is an
// error printed where du meets it among its directory's entries: before
// a subdirectory listed after it, or a file's line under -a, and after
// those listed before it. Each directory holds x and y, one a dangling
// link; which du meets first is the file system's order, so each case
// has GNU du 9.1's output for both, made with
//
//	mkdir -p u/p u/q u/r u/s
//	ln -s /nonexistent u/p/x && mkdir u/p/y
//	mkdir u/q/x && ln -s /nonexistent u/q/y
//	ln -s /nonexistent u/r/x && : >u/r/y
//	: >u/s/x && ln -s /nonexistent u/s/y
//	LC_ALL=C du $opts 2>&1
//
// on ext4, which listed x first, and on a tmpfs, which listed y first.
func TestErrorsAmongEntriesWhereDuMeetsThem(t *testing.T) {
	dir := t.TempDir()
	mkPair(t, filepath.Join(dir, "u/p"), "dang", "dir")
	mkPair(t, filepath.Join(dir, "u/q"), "dir", "dang")
	mkPair(t, filepath.Join(dir, "u/r"), "dang", "file")
	mkPair(t, filepath.Join(dir, "u/s"), "file", "dang")
	t.Chdir(dir)
	for _, c := range []struct {
		opts           string
		all            bool
		xFirst, yFirst string
	}{
		{"-L --inodes u/p", false,
			"E cannot access 'u/p/x'\n1\tu/p/y\n2\tu/p\n",
			"1\tu/p/y\nE cannot access 'u/p/x'\n2\tu/p\n"},
		{"-L -a --inodes u/p", true,
			"E cannot access 'u/p/x'\n1\tu/p/y\n2\tu/p\n",
			"1\tu/p/y\nE cannot access 'u/p/x'\n2\tu/p\n"},
		{"-L --inodes u/q", false,
			"1\tu/q/x\nE cannot access 'u/q/y'\n2\tu/q\n",
			"E cannot access 'u/q/y'\n1\tu/q/x\n2\tu/q\n"},
		{"-L -a --inodes u/q", true,
			"1\tu/q/x\nE cannot access 'u/q/y'\n2\tu/q\n",
			"E cannot access 'u/q/y'\n1\tu/q/x\n2\tu/q\n"},
		{"-L --inodes u/r", false,
			"E cannot access 'u/r/x'\n2\tu/r\n",
			"E cannot access 'u/r/x'\n2\tu/r\n"},
		{"-L -a --inodes u/r", true,
			"E cannot access 'u/r/x'\n1\tu/r/y\n2\tu/r\n",
			"1\tu/r/y\nE cannot access 'u/r/x'\n2\tu/r\n"},
		{"-L --inodes u/s", false,
			"E cannot access 'u/s/y'\n2\tu/s\n",
			"E cannot access 'u/s/y'\n2\tu/s\n"},
		{"-L -a --inodes u/s", true,
			"1\tu/s/x\nE cannot access 'u/s/y'\n2\tu/s\n",
			"E cannot access 'u/s/y'\n1\tu/s/x\n2\tu/s\n"},
	} {
		arg := c.opts[strings.LastIndexByte(c.opts, ' ')+1:]
		want := c.yFirst
		if listsXFirst(t, arg) {
			want = c.xFirst
		}
		dc := &du.Config{All: c.all, MaxDepth: math.MaxInt, Deref: du.DerefAll, HashAll: true, TimeType: "mtime", Jobs: 1}
		if got := duLines(context.Background(), dc, arg); got != want {
			t.Errorf("du %s:\n%q, want\n%q", c.opts, got, want)
		}
	}
}

// TestDirMetTwiceNamedWhereDuMeetsIt: under -L a directory reached both
// by its name and through a link is counted, with its errors, where du
// meets it first, whichever way the walk reached it first. Of v's x and
// y, the one listed first holds 400 files and a link to the other: two
// workers, one listing the files, the other taking the second directory,
// mostly reach it by its name first, where du meets it through the link.
// GNU du 9.1's output, made with
//
//	mkdir -p v/x v/y && ln -s ../y v/x/l && ln -s /nonexistent v/y/dang
//	for i in $(seq 0 399); do : >v/x/f$i; done
//	LC_ALL=C du -L --inodes v 2>&1
//
// on ext4, which listed x first, and the same with x and y swapped on a
// tmpfs, which listed y first.
func TestDirMetTwiceNamedWhereDuMeetsIt(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"v/x", "v/y"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	first, second := "y", "x"
	want := "E cannot access 'v/y/l/dang'\n1\tv/y/l\n402\tv/y\n403\tv\n"
	if listsXFirst(t, filepath.Join(dir, "v")) {
		first, second = "x", "y"
		want = "E cannot access 'v/x/l/dang'\n1\tv/x/l\n402\tv/x\n403\tv\n"
	}
	if err := os.Symlink("../"+second, filepath.Join(dir, "v", first, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent", filepath.Join(dir, "v", second, "dang")); err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		if err := os.WriteFile(filepath.Join(dir, "v", first, fmt.Sprint("f", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	// Which way the workers reach it first is a race: each run is one.
	for range 8 {
		dc := &du.Config{MaxDepth: math.MaxInt, Deref: du.DerefAll, HashAll: true, TimeType: "mtime", Jobs: 2}
		if got := duLines(context.Background(), dc, "v"); got != want {
			t.Fatalf("du -L --inodes v:\n%q, want\n%q", got, want)
		}
	}
}

// TestRootNeverReadCountsItsOwnSize: a directory argument the walk never
// reads (its context is done first) is counted as du counts one it cannot
// read: its own line, of its size as stat'ed, after the reason; none when
// the run was cancelled, which is no error of the directory's. GNU du
// 9.1 printed for a directory whose opening failed
//
//	mkdir -p t/d
//	strace -o /dev/null -P t -e trace=openat -e inject=openat:error=ENOENT \
//		du --inodes t   # du: cannot read directory 't': No such file or directory, 1 t
//
// The arguments are read live (one) or whole (two).
func TestRootNeverReadCountsItsOwnSize(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, d := range []string{"t/d", "x"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	for _, c := range []struct {
		ctx   context.Context
		files []string
		want  string
	}{
		{cancelled, []string{"t"}, "1\tt\n"},
		{cancelled, []string{"t", "x"}, "1\tt\n1\tx\n"},
		{expired, []string{"t"}, "E cannot read directory 't': context deadline exceeded\n1\tt\n"},
		{expired, []string{"t", "x"},
			"E cannot read directory 't': context deadline exceeded\n1\tt\nE cannot read directory 'x': context deadline exceeded\n1\tx\n"},
	} {
		dc := &du.Config{MaxDepth: math.MaxInt, HashAll: len(c.files) > 1, TimeType: "mtime", Jobs: 1}
		if got := duLines(c.ctx, dc, c.files...); got != c.want {
			t.Errorf("du --inodes %s, %v:\n%q, want\n%q", strings.Join(c.files, " "), c.ctx.Err(), got, c.want)
		}
	}
}
