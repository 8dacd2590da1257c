package tree

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// The cp -a comparison: a tree with every kind of entry and metadata,
// cloned by each method and by GNU cp, then compared entry by entry.

// aclXattr is a POSIX ACL as Linux stores it in system.posix_acl_access:
// version 2, then (tag, perm, id) entries.
func aclXattr(entries ...[3]uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, uint16(e[0]))
		b = binary.LittleEndian.AppendUint16(b, uint16(e[1]))
		b = binary.LittleEndian.AppendUint32(b, e[2])
	}
	return b
}

const (
	aclUserObj, aclUser, aclGroupObj, aclMask, aclOther = 1, 2, 4, 0x10, 0x20
	aclUndefined                                        = 0xffffffff
)

// capXattr is a version 2 security.capability granting CAP_NET_RAW (13),
// effective.
func capXattr() []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x02000001)
	b = binary.LittleEndian.AppendUint32(b, 1<<13)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 0)
	return binary.LittleEndian.AppendUint32(b, 0)
}

// metaTree makes, as root, the tree the comparison clones. It skips when
// not root or when the file system refuses user xattrs.
func metaTree(t *testing.T, root string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: owners, devices and capabilities need root")
	}
	must(t, os.MkdirAll(filepath.Join(root, "dir", "sub"), 0o755))
	w := func(name string, data []byte, mode os.FileMode) string {
		p := filepath.Join(root, name)
		must(t, os.WriteFile(p, data, 0o600))
		must(t, os.Chmod(p, mode))
		return p
	}
	p := w("plain", []byte("plain"), 0o644)
	if err := unix.Lsetxattr(p, "user.test", []byte("value"), 0); err != nil {
		t.Skipf("skipping: the file system refuses user xattrs: %v", err)
	}
	must(t, unix.Lsetxattr(filepath.Join(root, "dir"), "user.dir", []byte("d"), 0))
	suid := w("suid", []byte("#!/bin/sh\n"), 0o755)
	must(t, os.Chown(suid, 65534, 65534))
	must(t, os.Chmod(suid, 0o4755|os.ModeSetuid)) // chown cleared it
	must(t, unix.Chmod(suid, 0o4755))
	sgid := w("sgid", []byte("x"), 0o755)
	must(t, os.Chown(sgid, 0, 65534))
	must(t, unix.Chmod(sgid, 0o2755))
	capf := w("cap", []byte("\x7fELF"), 0o755)
	must(t, unix.Lsetxattr(capf, "security.capability", capXattr(), 0))
	acl := w("acl", []byte("acl"), 0o640)
	must(t, unix.Lsetxattr(acl, "system.posix_acl_access", aclXattr(
		[3]uint32{aclUserObj, 6, aclUndefined}, [3]uint32{aclUser, 4, 65534},
		[3]uint32{aclGroupObj, 4, aclUndefined}, [3]uint32{aclMask, 4, aclUndefined}, [3]uint32{aclOther, 0, aclUndefined}), 0))
	must(t, unix.Lsetxattr(filepath.Join(root, "dir"), "system.posix_acl_default", aclXattr(
		[3]uint32{aclUserObj, 7, aclUndefined}, [3]uint32{aclGroupObj, 5, aclUndefined}, [3]uint32{aclOther, 0, aclUndefined}), 0))
	must(t, unix.Chmod(filepath.Join(root, "dir", "sub"), 0o2775))
	must(t, os.Chown(filepath.Join(root, "dir", "sub"), 65534, 65534))

	sparse := w("sparse", nil, 0o644)
	f, err := os.OpenFile(sparse, os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteAt(bytes.Repeat([]byte("s"), 4096), 1<<20)
	must(t, err)
	must(t, f.Truncate(8<<20))
	must(t, f.Close())

	hl := w("dir/linked", []byte("linked"), 0o644)
	must(t, os.Link(hl, filepath.Join(root, "linked-too")))
	must(t, os.Link(hl, filepath.Join(root, "dir", "sub", "linked-three")))

	must(t, unix.Mkfifo(filepath.Join(root, "fifo"), 0o640))
	must(t, unix.Mknod(filepath.Join(root, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	must(t, err)
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()

	w("line\nbreak \xff", []byte("odd"), 0o600)
	must(t, os.Symlink("plain", filepath.Join(root, "link")))
	must(t, os.Lchown(filepath.Join(root, "link"), 65534, 65534))
	must(t, os.Mkdir(filepath.Join(root, "locked"), 0o555))

	past, future := time.Date(1950, 6, 1, 12, 0, 0, 123456789, time.UTC), time.Date(2200, 1, 1, 0, 0, 0, 987654321, time.UTC)
	must(t, os.Chtimes(filepath.Join(root, "plain"), future, past))
	must(t, os.Chtimes(filepath.Join(root, "dir", "sub"), past, future))
	ts := []unix.Timespec{unix.NsecToTimespec(past.UnixNano()), unix.NsecToTimespec(past.UnixNano())}
	must(t, unix.UtimesNanoAt(unix.AT_FDCWD, filepath.Join(root, "link"), ts, unix.AT_SYMLINK_NOFOLLOW))
	keepAtimes(t, root)
}

// keepAtimes moves every access time after its modification time, within
// the day, so that relatime leaves it alone when cp and the clone read the
// source one after the other, and both copies see the same.
func keepAtimes(t *testing.T, root string) {
	t.Helper()
	later := unix.NsecToTimespec(time.Now().Add(time.Hour).UnixNano())
	must(t, filepath.Walk(root, func(p string, fi fs.FileInfo, err error) error {
		must(t, err)
		st := fi.Sys().(*syscall.Stat_t)
		if st.Atim.Nano() > st.Mtim.Nano() {
			return nil
		}
		ts := []unix.Timespec{later, {Nsec: unix.UTIME_OMIT}}
		return unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
	}))
}

// entryMeta is what the comparison sees of one entry.
type entryMeta struct {
	Mode, Uid, Gid uint32
	Size           int64
	Mtime, Atime   int64 // Atime for files and links only: listing a directory reads it
	Rdev           uint64
	Target         string
	Xattrs         string
	Blocks         int64
	LinkGroup      string // the entry's hard-link group within the tree, by its first name
}

// treeMeta reads root's entries, by path below it.
func treeMeta(t *testing.T, root string) map[string]entryMeta {
	t.Helper()
	out := map[string]entryMeta{}
	first := map[uint64]string{}
	must(t, filepath.Walk(root, func(p string, fi fs.FileInfo, err error) error {
		must(t, err)
		rel, _ := filepath.Rel(root, p)
		st := fi.Sys().(*syscall.Stat_t)
		m := entryMeta{Mode: st.Mode, Uid: st.Uid, Gid: st.Gid, Size: st.Size, Mtime: st.Mtim.Nano(), Rdev: st.Rdev, Blocks: st.Blocks}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			m.Atime = st.Atim.Nano()
		} else {
			m.Size, m.Blocks = 0, 0 // a directory's size is the file system's business
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			m.Target, _ = os.Readlink(p)
		} else {
			m.Xattrs = xattrString(t, p)
		}
		if st.Mode&unix.S_IFMT == unix.S_IFREG && st.Nlink > 1 {
			if f, ok := first[st.Ino]; ok {
				m.LinkGroup = f
			} else {
				first[st.Ino], m.LinkGroup = rel, rel
			}
		}
		out[rel] = m
		return nil
	}))
	return out
}

func xattrString(t *testing.T, p string) string {
	buf := make([]byte, 4096)
	n, err := unix.Llistxattr(p, buf)
	if err != nil {
		return "error: " + err.Error()
	}
	names := strings.Split(strings.TrimRight(string(buf[:n]), "\x00"), "\x00")
	sort.Strings(names)
	var sb strings.Builder
	for _, name := range names {
		if name == "" || name == "security.selinux" {
			continue
		}
		v := make([]byte, 4096)
		k, err := unix.Lgetxattr(p, name, v)
		if err != nil {
			fmt.Fprintf(&sb, "%s: %v; ", name, err)
			continue
		}
		fmt.Fprintf(&sb, "%s=%x; ", name, v[:k])
	}
	return sb.String()
}

// compareTrees reports every difference between the clone and cp's copy;
// blocks are compared only to see that holes are kept (within 64 KiB).
func compareTrees(t *testing.T, what string, ours, cps map[string]entryMeta) {
	t.Helper()
	for p, c := range cps {
		o, ok := ours[p]
		if !ok {
			t.Errorf("%s: %q missing", what, p)
			continue
		}
		if o.Blocks > c.Blocks+128 {
			t.Errorf("%s: %q allocates %d blocks, cp's copy %d", what, p, o.Blocks, c.Blocks)
		}
		o.Blocks, c.Blocks = 0, 0
		if o != c {
			t.Errorf("%s: %q differs from cp -a's:\n ours %+v\n cp's %+v", what, p, o, c)
		}
	}
	for p := range ours {
		if _, ok := cps[p]; !ok {
			t.Errorf("%s: %q is not in cp's copy", what, p)
		}
	}
}

// TestSameAsCpA clones metaTree by every method the file system has and
// compares each clone with GNU cp's, on ext4 here and on XFS and btrfs
// (loop-mounted) for reflinks.
func TestSameAsCpA(t *testing.T) {
	if _, err := exec.LookPath("cp"); err != nil {
		t.Skip("skipping: no cp")
	}
	t.Run("ext4", func(t *testing.T) { testSameAsCpA(t, t.TempDir(), []Method{Copy, Hardlink}) })
	t.Run("xfs", func(t *testing.T) {
		testSameAsCpA(t, testfs.LoopMount(t, "xfs", "-m", "reflink=1"), []Method{Reflink, Copy})
	})
	t.Run("btrfs", func(t *testing.T) { testSameAsCpA(t, testfs.LoopMount(t, "btrfs"), []Method{Reflink}) })
}

func testSameAsCpA(t *testing.T, base string, methods []Method) {
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	metaTree(t, src)
	for _, m := range methods {
		args := map[Method][]string{Copy: {"-a"}, Hardlink: {"-al"}, Reflink: {"-a", "--reflink=always"}}[m]
		cpDst := filepath.Join(base, "cp-"+string(m))
		if out, err := exec.Command("cp", append(args, src, cpDst)...).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v: %s", args, err, out)
		}
		dst := filepath.Join(base, "ours-"+string(m))
		res, err := Clone(src, dst, &Options{Method: m, Specials: ReproduceSpecials})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings %v", m, res.Warnings)
		}
		ours, cps := treeMeta(t, dst), treeMeta(t, cpDst)
		compareTrees(t, string(m), ours, cps)
	}
}
