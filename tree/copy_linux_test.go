package tree

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// pattern is n bytes that differ at every offset of 4 KiB, so that a
// chunk copied to the wrong place, or twice, shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i/4096 + i%251)
	}
	return b
}

// sameFiles fails the test unless each of names has the same bytes in
// src and dst.
func sameFiles(t *testing.T, src, dst string, names ...string) {
	t.Helper()
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(src, name))
		must(t, err)
		got, err := os.ReadFile(filepath.Join(dst, name))
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes copied, differing from the source's %d", name, len(got), len(want))
		}
	}
}

// TestCopyLargerThanAChunk copies a file of two chunks of copy_file_range
// and a few bytes more: the second chunk goes at the first's end.
func TestCopyLargerThanAChunk(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "big"), pattern(copyChunk+4099), 0o644))
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	sameFiles(t, src, dst, "big")
}

// TestCopyAcrossFileSystemTypes copies from a tmpfs to the test's own file
// system, where copy_file_range answers EXDEV before it copies anything:
// the files are read and written instead, several buffers of them, a
// file with a hole, and an empty one.
func TestCopyAcrossFileSystemTypes(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	testfs.MountTmpfs(t, src)
	must(t, os.WriteFile(filepath.Join(src, "buffers"), pattern(3*128<<10+7), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "empty"), nil, 0o644))
	f, err := os.Create(filepath.Join(src, "holes"))
	must(t, err)
	_, err = f.WriteAt(pattern(5000), 1<<20)
	must(t, err)
	must(t, f.Truncate(3<<20))
	must(t, f.Close())
	dst := filepath.Join(t.TempDir(), "dst")
	_, err = Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	sameFiles(t, src, dst, "buffers", "empty", "holes")
}

// TestCopySizeZeroWithData copies a file whose size says 0 but which
// holds more than its first read of 512 bytes, as /proc's do (/proc/crypto
// bound onto a file of the source), and an empty file: each to its end.
func TestCopySizeZeroWithData(t *testing.T) {
	want, err := os.ReadFile("/proc/crypto")
	if err != nil || len(want) <= 512 {
		t.Skipf("skipping: /proc/crypto holds %d bytes (%v), want more than 512", len(want), err)
	}
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "crypto"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(src, "empty"), nil, 0o644))
	testfs.BindMount(t, "/proc/crypto", filepath.Join(src, "crypto"))
	dst := filepath.Join(t.TempDir(), "dst")
	_, err = Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	if got, _ := os.ReadFile(filepath.Join(dst, "crypto")); !bytes.Equal(got, want) {
		t.Errorf("crypto: %d bytes copied, want /proc/crypto's %d", len(got), len(want))
	}
	if fi, err := os.Stat(filepath.Join(dst, "empty")); err != nil || fi.Size() != 0 {
		t.Errorf("empty: %v, %v", fi, err)
	}
}

// TestCopyKeepsTimesAfterTheCopy: a source file whose times are changed
// while its data is copied (its ctime with them, its mode not) gives the
// copy its times after the copy, not those of the stat before it.
func TestCopyKeepsTimesAfterTheCopy(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	f := filepath.Join(src, "f")
	must(t, os.WriteFile(f, []byte("data"), 0o644))
	later := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	testHookChunk = func(int64) { must(t, os.Chtimes(f, later, later)) }
	defer func() { testHookChunk = nil }()
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	must(t, err)
	fi, err := os.Stat(filepath.Join(dst, "f"))
	must(t, err)
	if !fi.ModTime().Equal(later) {
		t.Errorf("the copy's mtime is %v, want the source's after the copy, %v", fi.ModTime(), later)
	}
}
