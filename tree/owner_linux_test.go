package tree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOwnerDiffersInUserOnly: as root, a file, a directory and a symbolic
// link of another user in root's own group are given that user, though
// their group is already the one they were made with.
func TestOwnerDiffersInUserOnly(t *testing.T) {
	if os.Geteuid() != 0 || os.Getegid() != 0 {
		t.Skip("skipping: needs root, in group 0")
	}
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), []byte("f"), 0o644))
	must(t, os.Mkdir(filepath.Join(src, "d"), 0o755))
	must(t, os.Symlink("f", filepath.Join(src, "l")))
	for _, name := range []string{"f", "d", "l"} {
		must(t, os.Lchown(filepath.Join(src, name), 1234, 0))
	}
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	for _, name := range []string{"f", "d", "l"} {
		if st := stat(t, filepath.Join(dst, name)); st.Uid != 1234 || st.Gid != 0 {
			t.Errorf("%s: owner %d:%d, want 1234:0", name, st.Uid, st.Gid)
		}
	}
}
