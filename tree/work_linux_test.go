package tree

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// cloneWithWorkDirSwapped clones a small tree while, between the mkdir of
// the clone's work directory and its open, the directory made is moved
// away and put(path) puts another under its name; it returns the clone's
// error.
func cloneWithWorkDirSwapped(t *testing.T, put func(path string)) error {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.MkdirAll(filepath.Join(src, "d"), 0o755))
	parent := t.TempDir()
	testHookWorkMade = func(path string) {
		must(t, os.Rename(path, filepath.Join(parent, "away")))
		put(path)
	}
	defer func() { testHookWorkMade = nil }()
	_, err := Clone(src, filepath.Join(parent, "dst"), &Options{Method: Copy})
	return err
}

// TestWorkDirSwappedForOneHoldingFiles: the directory put in passes every
// other check (the cloning user's, 0700, made after the clone began) but
// holds a file. The clone refuses it and leaves the file.
func TestWorkDirSwappedForOneHoldingFiles(t *testing.T) {
	var planted string
	err := cloneWithWorkDirSwapped(t, func(path string) {
		must(t, os.Mkdir(path, 0o700))
		planted = filepath.Join(path, "planted")
		must(t, os.WriteFile(planted, []byte("x"), 0o600))
	})
	if !errors.Is(err, errNotOurs) {
		t.Errorf("err = %v, want the work directory refused", err)
	}
	if _, err := os.Stat(planted); err != nil {
		t.Errorf("the file in the directory swapped in: %v", err)
	}
}

// TestWorkDirSwappedForAnOlderOne: the directory put in is the cloning
// user's, 0700 and empty, but was made before the clone began, as its
// birth time shows: the clone refuses it.
func TestWorkDirSwappedForAnOlderOne(t *testing.T) {
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, t.TempDir(), 0, unix.STATX_BTIME, &stx); err != nil || stx.Mask&unix.STATX_BTIME == 0 {
		t.Skipf("skipping: the file system keeps no birth time (%v)", err)
	}
	old := filepath.Join(t.TempDir(), "old")
	must(t, os.Mkdir(old, 0o700))
	time.Sleep(100 * time.Millisecond) // past the 20 ms the check allows for the clock's grain
	err := cloneWithWorkDirSwapped(t, func(path string) {
		must(t, os.Rename(old, path))
		old = path
	})
	if !errors.Is(err, errNotOurs) {
		t.Errorf("err = %v, want the older directory refused", err)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("the directory swapped in: %v", err)
	}
}

// TestSourceParentAtZero: with standard input closed, the first directory
// a clone opens, the source's parent, is descriptor 0; it is closed as any
// other by the time the clone returns.
func TestSourceParentAtZero(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.MkdirAll(filepath.Join(src, "a"), 0o755))
	saveStdin(t)
	unix.Close(0)
	_, err := Clone(src, filepath.Join(filepath.Dir(src), "dst"), &Options{Method: Copy, Workers: 1})
	must(t, err)
	if _, err := unix.FcntlInt(0, unix.F_GETFD, 0); err == nil {
		t.Error("the clone left descriptor 0 open")
	}
}
