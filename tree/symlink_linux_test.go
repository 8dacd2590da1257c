package tree

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSymlinkTargetLengths clones symbolic links whose targets fill the
// first read buffer (256 bytes) less one, exactly, and one more, and run
// to PATH_MAX less one: each target is copied whole.
func TestSymlinkTargetLengths(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	lengths := []int{1, 255, 256, 257, 511, 512, 513, 4095}
	for _, n := range lengths {
		must(t, os.Symlink(strings.Repeat("t", n), filepath.Join(src, strconv.Itoa(n))))
	}
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	for _, n := range lengths {
		got, err := os.Readlink(filepath.Join(dst, strconv.Itoa(n)))
		if err != nil || got != strings.Repeat("t", n) {
			t.Errorf("a target of %d bytes cloned as one of %d (%v)", n, len(got), err)
		}
	}
}
