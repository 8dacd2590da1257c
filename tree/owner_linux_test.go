package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// TestOwnerDiffersInOneID: as root, a file, a directory, a symbolic link
// and a FIFO of another user in root's group, and of root in another
// group, are given that user and group, though one of the two is already
// the one they were made with; the FIFO, its owner kept, keeps its set-id
// bits.
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
		must(t, unix.Mkfifo(filepath.Join(src, dir, "p"), 0o644))
		for _, name := range []string{"f", "d", "l", "p"} {
			must(t, os.Lchown(filepath.Join(src, dir, name), o[0], o[1]))
		}
		must(t, unix.Chmod(filepath.Join(src, dir, "p"), 0o6755)) // after the chown, which clears them
	}
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Specials: ReproduceSpecials})
	must(t, err)
	for dir, o := range owners {
		for _, name := range []string{"f", "d", "l", "p"} {
			if st := stat(t, filepath.Join(dst, dir, name)); int(st.Uid) != o[0] || int(st.Gid) != o[1] {
				t.Errorf("%s/%s: owner %d:%d, want %d:%d", dir, name, st.Uid, st.Gid, o[0], o[1])
			}
		}
		if st := stat(t, filepath.Join(dst, dir, "p")); st.Mode&0o7777 != 0o6755 {
			t.Errorf("%s/p: mode %#o, want 06755", dir, st.Mode&0o7777)
		}
	}
}

// TestSpecialOfAnotherUserAsNobody: nobody, cloning root's FIFO of mode
// 06755, makes one of their own; not root's, it keeps no set-id bit.
func TestSpecialOfAnotherUserAsNobody(t *testing.T) {
	world := testfs.WorldDir(t)
	src := filepath.Join(world, "src")
	must(t, os.Mkdir(src, 0o755))
	p := filepath.Join(src, "p")
	must(t, unix.Mkfifo(p, 0o644))
	must(t, unix.Chmod(p, 0o6755))
	out := filepath.Join(world, "out")
	must(t, os.Mkdir(out, 0o755))
	must(t, os.Chmod(out, 0o777)) // past the umask
	dst := filepath.Join(out, "dst")
	if o := cloneAsNobody(t, world, src, dst, Copy, ReproduceSpecials); o.Err != "" {
		t.Fatal(o.Err)
	}
	st := stat(t, filepath.Join(dst, "p"))
	if st.Uid != 65534 || st.Mode&0o7777 != 0o755 {
		t.Errorf("nobody's copy of root's FIFO: owner %d, mode %#o; want 65534, 0755", st.Uid, st.Mode&0o7777)
	}
}
