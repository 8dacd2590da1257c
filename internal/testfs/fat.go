//go:build linux

package testfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// FATMount mounts a new 64 MiB image of FAT (fstype "vfat", made by
// mkfs.vfat) or exFAT ("exfat", mkfs.exfat): with the kernel's driver
// where it has one, else through FUSE (fusefat, exfat-fuse), whose times
// keep FAT's steps all the same. It unmounts it when the test ends, and
// skips the test where neither can be had.
func FATMount(t testing.TB, fstype string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting an image needs root")
	}
	if fsKnown(fstype) {
		return LoopMount(t, fstype)
	}
	fuse := map[string]string{"vfat": "fusefat", "exfat": "mount.exfat-fuse"}[fstype]
	bin, err := exec.LookPath(fuse)
	if err != nil {
		t.Skipf("skipping: no %s driver in the kernel and no %s: %v", fstype, fuse, err)
	}
	mkfs, err := exec.LookPath("mkfs." + fstype)
	if err != nil {
		t.Skipf("skipping: no mkfs.%s: %v", fstype, err)
	}
	work := t.TempDir()
	img, mnt := filepath.Join(work, "fs.img"), filepath.Join(work, "mnt")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 64<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mkfs, img).CombinedOutput(); err != nil {
		t.Skipf("skipping: mkfs.%s failed: %v: %s", fstype, err, out)
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", "rw+", img, mnt}
	if fuse != "fusefat" {
		args = []string{loopDevice(t, img), mnt} // exfat-fuse takes block devices only
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Skipf("skipping: %s failed: %v: %s", fuse, err, out)
	}
	t.Cleanup(func() {
		// A FUSE daemon may still be busy for a moment after the test.
		for try := 0; ; try++ {
			out, err := exec.Command("umount", mnt).CombinedOutput()
			if err == nil {
				return
			}
			if try == 50 {
				t.Errorf("umount %s: %v: %s", mnt, err, out)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return mnt
}

// loopDevice attaches img to a loop device until the test ends.
func loopDevice(t testing.TB, img string) string {
	t.Helper()
	out, err := exec.Command("losetup", "-f", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("skipping: losetup failed: %v: %s", err, out)
	}
	dev := string(out[:len(out)-1])
	t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
	return dev
}

// fsKnown reports whether the kernel has a driver for fstype.
func fsKnown(fstype string) bool {
	b, err := os.ReadFile("/proc/filesystems")
	if err != nil {
		return false
	}
	for _, line := range splitLines(string(b)) {
		if f := lastField(line); f == fstype {
			return true
		}
	}
	return false
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i == len(s) {
			break
		}
		s = s[i+1:]
	}
	return out
}

func lastField(line string) string {
	i := len(line)
	for i > 0 && line[i-1] != '\t' && line[i-1] != ' ' {
		i--
	}
	return line[i:]
}
