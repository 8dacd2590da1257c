package tree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOwnerDiffersInOneID: as root, a file, a directory and a symbolic
// link of another user in root's group, and of root in another group,
// are given that user and group, though one of the two is already the one
// they were made with.
func TestOwnerDiffersInOneID(t *testing.T) {
	if os.Geteuid() != 0 || os.Getegid() != 0 {
		t.Skip("skipping: needs root, in group 0")
	}
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	owners := map[string][2]int{"user": {1234, 0}, "group": {0, 1234}}
	for dir, o := range owners {
		must(t, os.Mkdir(filepath.Join(src, dir), 0o755))
		must(t, os.WriteFile(filepath.Join(src, dir, "f"), []byte("f"), 0o644))
		must(t, os.Mkdir(filepath.Join(src, dir, "d"), 0o755))
		must(t, os.Symlink("f", filepath.Join(src, dir, "l")))
		for _, name := range []string{"f", "d", "l"} {
			must(t, os.Lchown(filepath.Join(src, dir, name), o[0], o[1]))
		}
	}
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	for dir, o := range owners {
		for _, name := range []string{"f", "d", "l"} {
			if st := stat(t, filepath.Join(dst, dir, name)); int(st.Uid) != o[0] || int(st.Gid) != o[1] {
				t.Errorf("%s/%s: owner %d:%d, want %d:%d", dir, name, st.Uid, st.Gid, o[0], o[1])
			}
		}
	}
}
