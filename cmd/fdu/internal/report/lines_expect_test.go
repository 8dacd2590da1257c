package report

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// TestLinesAsGNUDu: du's lines, their order and their bytes, as GNU du
// 9.1 printed them for a chain of directories t/a/b/c holding one file of
// 2049 bytes: one entry a directory, so that the order is du's and not
// the file system's, and --inodes or apparent sizes, the same on every
// file system. Made with
//
//	mkdir -p t/a/b/c && head -c 2049 /dev/zero >t/a/b/c/f
//	LC_ALL=C du $opts
func TestLinesAsGNUDu(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "t/a/b/c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t/a/b/c/f"), make([]byte, 2049), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	bytes := units.BlockSize{Size: 1}
	for _, c := range []struct {
		opts  string // du's
		all   bool
		depth int
		rc    Config
		files []string
		want  string
	}{
		{"-a --inodes t", true, math.MaxInt, Config{Inodes: true}, []string{"t"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"--inodes t", false, math.MaxInt, Config{Inodes: true}, []string{"t"},
			"2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"-c --inodes t", false, math.MaxInt, Config{Inodes: true, Total: true}, []string{"t"},
			"2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n5\ttotal\n"},
		{"--inodes --max-depth=1 t", false, 1, Config{Inodes: true}, []string{"t"},
			"4\tt/a\n5\tt\n"},
		{"-s --inodes t", false, 0, Config{Inodes: true}, []string{"t"}, "5\tt\n"},
		{"-a --inodes -t 3 t", true, math.MaxInt, Config{Inodes: true, Threshold: 3}, []string{"t"},
			"3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"-a --inodes -t 4 t", true, math.MaxInt, Config{Inodes: true, Threshold: 4}, []string{"t"},
			"4\tt/a\n5\tt\n"},
		{"-a --inodes -t -2 t", true, math.MaxInt, Config{Inodes: true, Threshold: -2}, []string{"t"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n"},
		{"-a --inodes -t -4 t", true, math.MaxInt, Config{Inodes: true, Threshold: -4}, []string{"t"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n"},
		{"-0 -s --inodes t", false, 0, Config{Inodes: true, Null: true}, []string{"t"}, "5\tt\x00"},
		{"--inodes t/a/b t", false, math.MaxInt, Config{Inodes: true}, []string{"t/a/b", "t"},
			"2\tt/a/b/c\n3\tt/a/b\n1\tt/a\n2\tt\n"},
		{"-c --inodes t t/a/b", false, math.MaxInt, Config{Inodes: true, Total: true}, []string{"t", "t/a/b"},
			"2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n5\ttotal\n"},
		{"-s -c --inodes t/a t/a/b/c/f", false, 0, Config{Inodes: true, Total: true}, []string{"t/a", "t/a/b/c/f"},
			"4\tt/a\n4\ttotal\n"},
		{"--inodes t/", false, math.MaxInt, Config{Inodes: true}, []string{"t/"},
			"2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt/\n"},
		{"--inodes t//", false, math.MaxInt, Config{Inodes: true}, []string{"t//"},
			"2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt/\n"},
		{"-a --inodes t/", true, math.MaxInt, Config{Inodes: true}, []string{"t/"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt/\n"},
		{"-a --inodes --max-depth=3 t", true, 3, Config{Inodes: true}, []string{"t"},
			"2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"-a --inodes --max-depth=4 t", true, 4, Config{Inodes: true}, []string{"t"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"-a --inodes -t 0 t", true, math.MaxInt, Config{Inodes: true, Threshold: 0}, []string{"t"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"-a --inodes -t -1 t", true, math.MaxInt, Config{Inodes: true, Threshold: -1}, []string{"t"},
			"1\tt/a/b/c/f\n"},
		{"-a --inodes -t 5 t", true, math.MaxInt, Config{Inodes: true, Threshold: 5}, []string{"t"}, "5\tt\n"},
		{"-a --inodes -t 6 t", true, math.MaxInt, Config{Inodes: true, Threshold: 6}, []string{"t"}, ""},
		{"-a --inodes -t -5 t", true, math.MaxInt, Config{Inodes: true, Threshold: -5}, []string{"t"},
			"1\tt/a/b/c/f\n2\tt/a/b/c\n3\tt/a/b\n4\tt/a\n5\tt\n"},
		{"-b t/a/b/c/f", false, math.MaxInt, Config{Unit: bytes}, []string{"t/a/b/c/f"}, "2049\tt/a/b/c/f\n"},
		{"-h --apparent-size t/a/b/c/f", false, math.MaxInt, Config{Unit: units.Human()}, []string{"t/a/b/c/f"},
			"2.1K\tt/a/b/c/f\n"},
		{"-c -b t/a/b/c/f t/a/b/c/f", false, math.MaxInt, Config{Unit: bytes, Total: true}, []string{"t/a/b/c/f", "t/a/b/c/f"},
			"2049\tt/a/b/c/f\n2049\ttotal\n"},
	} {
		dc := &du.Config{All: c.all, MaxDepth: c.depth, Apparent: !c.rc.Inodes, TimeType: "mtime", Jobs: 1,
			HashAll: len(c.files) > 1}
		rc := c.rc
		if rc.Unit.Size == 0 {
			rc.Unit = units.BlockSize{Size: 1}
		}
		s := du.NewScanner(dc, nil)
		var out strings.Builder
		w := bufio.NewWriter(&out)
		var errs []string
		msgs := Messages{Error: func(m string) { errs = append(errs, m) }, Note: func(m string) { errs = append(errs, m) }}
		Du(context.Background(), &rc, s, s.StatArgs(c.files, ""), w, msgs)
		w.Flush()
		if out.String() != c.want || errs != nil {
			t.Errorf("du %s:\n%q, want\n%q (messages %q)", c.opts, out.String(), c.want, errs)
		}
	}
}

// TestErrorsWhereDuPrintsThem: under -L a dangling link is an error,
// printed (after what stdout holds) where du meets it, before its
// directory's line, as GNU du 9.1 printed them with
//
//	mkdir -p u/a/b && ln -s /nonexistent u/a/b/dang
//	LC_ALL=C du $opts 2>&1
//
// (one entry a directory: the order is du's, not the file system's).
func TestErrorsWhereDuPrintsThem(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "u/a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent", filepath.Join(dir, "u/a/b/dang")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, c := range []struct {
		opts  string
		all   bool
		depth int
		want  string
	}{
		{"-L -a --inodes u", true, math.MaxInt, "E cannot access 'u/a/b/dang'\n1\tu/a/b\n2\tu/a\n3\tu\n"},
		{"-L --inodes --max-depth=1 u", false, 1, "E cannot access 'u/a/b/dang'\n2\tu/a\n3\tu\n"},
	} {
		dc := &du.Config{All: c.all, MaxDepth: c.depth, Deref: du.DerefAll, TimeType: "mtime", Jobs: 1}
		s := du.NewScanner(dc, nil)
		var out strings.Builder
		w := bufio.NewWriter(&out)
		msg := func(m string) { w.WriteString("E " + m + "\n") } // in order with the lines, as du's flush before each
		Du(context.Background(), &Config{Inodes: true, Unit: units.BlockSize{Size: 1}}, s, s.StatArgs([]string{"u"}, ""), w, Messages{Error: msg, Note: msg})
		w.Flush()
		if got := out.String(); got != c.want {
			t.Errorf("du %s:\n%q, want\n%q", c.opts, got, c.want)
		}
	}
}
