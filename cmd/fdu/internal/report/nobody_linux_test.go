package report

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// helperEnv makes the test binary print one report itself, of the
// argument it holds, in the directory helperEnv+"_DIR": run as nobody,
// for what root can always read.
const helperEnv = "REPORT_TEST_HELPER_ARG"

func TestMain(m *testing.M) {
	if arg, ok := os.LookupEnv(helperEnv); ok {
		if err := os.Chdir(os.Getenv(helperEnv + "_DIR")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		// One argument, neither -s nor -L: read live.
		dc := &du.Config{MaxDepth: math.MaxInt, TimeType: "mtime", Jobs: 1}
		fmt.Print(duLines(context.Background(), dc, arg))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestUnsearchableDirErrorsInListingOrder: in a directory that can be
// read but not searched no entry can be stat'ed, and du says so of each
// in the order the directory lists them, files and subdirectories
// alike, then prints the directory's line. A live report learns of the
// subdirectories' errors only as the walk tries them, after the listing.
// GNU du 9.1 printed, as nobody,
//
//	mkdir -p u/nox && for i in $(seq 0 19); do mkdir u/nox/d$i; : >u/nox/f$i; done
//	chmod 644 u/nox
//	LC_ALL=C du --inodes u/nox 2>&1
//
// a line "du: cannot access 'u/nox/NAME': Permission denied" for each
// name as `ls -U u/nox` lists them, then "1\tu/nox".
func TestUnsearchableDirErrorsInListingOrder(t *testing.T) {
	top := testfs.WorldDir(t)
	nox := filepath.Join(top, "u", "nox")
	for i := range 100 {
		if err := os.MkdirAll(filepath.Join(nox, fmt.Sprint("d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(nox, fmt.Sprint("f", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(nox)
	if err != nil {
		t.Fatal(err)
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(nox, 0o644); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, name := range names {
		fmt.Fprintf(&want, "E cannot access 'u/nox/%s': Permission denied\n", name)
	}
	want.WriteString("1\tu/nox\n")
	// Its stdout alone: a binary built for coverage may complain on
	// stderr that nobody cannot write its counters.
	r := testfs.RunAsNobodyResult(t, top, helperEnv+"=u/nox", helperEnv+"_DIR="+top)
	if r.Code != 0 || r.Stdout != want.String() {
		t.Errorf("du --inodes u/nox as nobody (status %d, %s):\n%s\nwant\n%s", r.Code, r.Stderr, r.Stdout, want.String())
	}
}
