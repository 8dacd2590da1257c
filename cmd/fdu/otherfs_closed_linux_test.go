package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// TestOneFileSystemClosedMount: under -x a mount whose root nobody may
// read is another file system's, left out without a word as du leaves
// it, not a directory that could not be read.
func TestOneFileSystemClosedMount(t *testing.T) {
	du := gnuDu(t)
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to mount a tmpfs and run du and fdu as nobody")
	}
	top := testfs.WorldDir(t)
	root := filepath.Join(top, "m")
	for _, d := range []string{"a/closed", "b"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "b", "f"), make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	testfs.MountTmpfs(t, filepath.Join(root, "a", "closed"), "mode=000")
	for _, args := range [][]string{{"-x", "m"}, {"-x", "-a", "m"}, {"-xs", "m"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			compare(t, runDuAsNobody(t, du, top, nil, args), runHelper(t, top, args))
		})
	}
}

// TestOneFileSystemClosedMountExport: fdu -x -o marks such a mount
// otherfs, as ncdu -x does, whether it streams or exports the tree's
// scan (--exclude-caches), and says nothing of it.
func TestOneFileSystemClosedMountExport(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to mount a tmpfs and run fdu as nobody")
	}
	top := testfs.WorldDir(t)
	root := filepath.Join(top, "m")
	if err := os.MkdirAll(filepath.Join(root, "a", "closed"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.MountTmpfs(t, filepath.Join(root, "a", "closed"), "mode=000")
	for _, args := range [][]string{{"-x", "-o", "-", "m"}, {"-x", "--exclude-caches", "-o", "-", "m"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			got := runHelper(t, top, args)
			if got.stderr != "" || got.code != 0 {
				t.Errorf("exit status %d, stderr %q", got.code, got.stderr)
			}
			if !strings.Contains(got.stdout, `{"name":"closed","excluded":"otherfs"}`) {
				t.Errorf("closed is not marked otherfs:\n%s", got.stdout)
			}
		})
	}
}
