package tree

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWorkDirSwappedForOneHoldingFiles: between the mkdir of the clone's
// work directory and its open, a directory that passes every other check
// (the cloning user's, 0700, made after the clone began) but holds a file
// is put under its name. The clone refuses it and leaves the file.
func TestWorkDirSwappedForOneHoldingFiles(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.MkdirAll(filepath.Join(src, "d"), 0o755))
	parent := t.TempDir()
	var planted string
	testHookWorkMade = func(path string) {
		must(t, os.Rename(path, filepath.Join(parent, "away")))
		must(t, os.Mkdir(path, 0o700))
		planted = filepath.Join(path, "planted")
		must(t, os.WriteFile(planted, []byte("x"), 0o600))
	}
	defer func() { testHookWorkMade = nil }()
	_, err := Clone(src, filepath.Join(parent, "dst"), &Options{Method: Copy})
	if !errors.Is(err, errNotOurs) {
		t.Errorf("err = %v, want the work directory refused", err)
	}
	if _, err := os.Stat(planted); err != nil {
		t.Errorf("the file in the directory swapped in: %v", err)
	}
}
