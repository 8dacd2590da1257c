package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// TestLowFileLimitSameAsDu runs fdu with RLIMIT_NOFILE at 16, 32 and 64
// and from 1 to 64 threads: it must print what du prints, with fewer
// threads than asked if need be, never an EMFILE.
func TestLowFileLimitSameAsDu(t *testing.T) {
	du := gnuDu(t)
	base := t.TempDir()
	// Bushy: a walk keeps many directories open at once.
	if err := os.Mkdir(filepath.Join(base, "t"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := treegen.Make(filepath.Join(base, "t"), treegen.SourceCheckout.Small(4, 6, 3), 1); err != nil {
		t.Fatal(err)
	}
	want := map[string]result{}
	for _, flags := range []string{"-s", "-a", "-sL"} {
		want[flags] = runDu(t, du, base, nil, []string{flags, "t"})
	}
	for _, lim := range []uint64{16, 32, 64} {
		testfs.LimitOpenFiles(t, lim)
		for _, jobs := range []int{1, 2, 8, 64} {
			for flags, w := range want {
				t.Run(fmt.Sprintf("%d/-j%d/%s", lim, jobs, flags), func(t *testing.T) {
					compare(t, w, runFdu(t, base, nil, []string{flags, "-j", fmt.Sprint(jobs), "t"}))
				})
			}
		}
	}
}
