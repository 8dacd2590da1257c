package disks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// TestListMounts mounts a tmpfs of a known size and a loop ext4, under a
// name with a space and a newline: both are listed, with their type,
// size, use and the name as it is; /proc is not.
func TestListMounts(t *testing.T) {
	ext4 := testfs.LoopMount(t, "ext4") // skips unless root, with mkfs.ext4
	if err := os.WriteFile(filepath.Join(ext4, "data"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), "odd name\nhere")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.MountTmpfs(t, tmp, "size=8m")
	if err := os.WriteFile(filepath.Join(tmp, "data"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := List()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]Disk{}
	for _, x := range d {
		found[x.MountPoint] = x
		if Pseudo(x.Type) || x.MountPoint == "/proc" {
			t.Errorf("listed a pseudo file system: %+v", x)
		}
	}
	if x, ok := found[tmp]; !ok || x.Type != "tmpfs" || x.Size != 8<<20 || x.Used < 1<<20 || x.Free > x.Size-1<<20 {
		t.Errorf("the tmpfs: %+v (found %v)", x, ok)
	}
	if x, ok := found[ext4]; !ok || x.Type != "ext4" || !strings.HasPrefix(x.Device, "/dev/loop") || x.Used < 4<<20 || x.Size < 50<<20 {
		t.Errorf("the ext4: %+v (found %v)", x, ok)
	}
	for i := 1; i < len(d); i++ {
		if d[i].Used > d[i-1].Used {
			t.Errorf("not sorted by use: %s after %s", d[i].MountPoint, d[i-1].MountPoint)
		}
	}
}

// TestListOddMountPoint: a tmpfs mounted under a name with a no-break
// space, a carriage return and an escape sequence, which mountinfo leaves
// raw, is listed under its own name, not a part of it.
func TestListOddMountPoint(t *testing.T) {
	tmp := filepath.Join(t.TempDir(), "a\u00a0b\rc\x1b[2J")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.MountTmpfs(t, tmp, "size=4m")
	d, err := List()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range d {
		if x.MountPoint == tmp {
			return
		}
		if strings.HasPrefix(tmp, x.MountPoint) && x.MountPoint != "/" && x.Type == "tmpfs" {
			t.Errorf("listed under a part of its name: %q", x.MountPoint)
		}
	}
	t.Errorf("%q is not listed", tmp)
}
