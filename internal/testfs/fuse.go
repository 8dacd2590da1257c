//go:build linux

package testfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// PagedDir mounts a FUSE file system of one directory holding regular
// files named names, each len(name) bytes long, and returns its path. Its
// server answers each READDIR with at most perReply entries, so every
// getdents64 on it returns a small piece of the listing, as sshfs or
// rclone do a page at a time: what a local file system never does. The
// server is a small one of the kernel's protocol, not a library, so that
// the module needs nothing for its tests. It skips the test where FUSE
// cannot be had (not root, no /dev/fuse, a mount refused).
func PagedDir(t testing.TB, names []string, perReply int) string {
	t.Helper()
	return PagedDirFailing(t, names, perReply, nil)
}

// PagedDirFailing is PagedDir whose server fails the look-up of each name
// in fail with its errno, as a network file system may: the name is
// listed, and its stat fails.
func PagedDirFailing(t testing.TB, names []string, perReply int, fail map[string]syscall.Errno) string {
	t.Helper()
	s := newPagedServer(t, names, perReply, fail)
	if os.Geteuid() != 0 {
		t.Skip("skipping: a FUSE mount needs root")
	}
	if os.Getenv("FRD_EMULATED") != "" {
		t.Skip("skipping: a FUSE server inside qemu-user (FRD_EMULATED) is not run")
	}
	detachDead()
	// The runtime's poller is started now, not by the device's os.File
	// below, where a failure would end the process with the mount made.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatalf("a pipe, to start the poller: %v", err)
	}
	r.Close()
	w.Close()
	fd, err := unix.Open("/dev/fuse", unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if refused(err) {
		t.Skipf("skipping: no FUSE here: %v", err)
	} else if err != nil {
		t.Fatalf("open /dev/fuse: %v", err)
	}
	mnt := filepath.Join(t.TempDir(), "paged")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		unix.Close(fd)
		t.Fatal(err)
	}
	opts := fmt.Sprintf("fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", fd)
	if err := unix.Mount("frdtest", mnt, "fuse.frdtest", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		unix.Close(fd)
		if refused(err) {
			t.Skipf("skipping: cannot mount FUSE: %v", err)
		}
		t.Fatalf("mount FUSE: %v", err)
	}
	// Non-blocking, so that Close ends a Read; made an os.File only now,
	// since the device polls as an error until it is mounted.
	s.dev = os.NewFile(uintptr(fd), "/dev/fuse")
	var wg sync.WaitGroup
	wg.Go(s.serve)
	t.Cleanup(func() {
		unix.Unmount(mnt, unix.MNT_DETACH)
		s.dev.Close()
		wg.Wait()
		if s.writeErr != nil {
			t.Errorf("the FUSE server's reply was refused: %v", s.writeErr)
		}
	})
	return mnt
}

// newPagedServer checks what a PagedDir is to serve, and keeps its own
// copy.
func newPagedServer(t testing.TB, names []string, perReply int, fail map[string]syscall.Errno) *pagedServer {
	t.Helper()
	if perReply < 1 {
		t.Fatalf("PagedDir: %d entries per reply", perReply)
	}
	s := &pagedServer{names: slices.Clone(names), index: map[string]int{}, fail: maps.Clone(fail), perReply: perReply}
	for i, n := range names {
		if _, dup := s.index[n]; dup || n == "" || n == "." || n == ".." || strings.ContainsAny(n, "/\x00") {
			t.Fatalf("PagedDir: the name %q cannot be served", n)
		}
		s.index[n] = i
	}
	return s
}

// refused reports whether err says FUSE is not to be had here.
func refused(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENODEV) || errors.Is(err, syscall.ENXIO) ||
		errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES)
}

// detachDead detaches the PagedDir mounts whose server is gone, left by a
// test process that was killed (a time-out): each answers ENOTCONN.
func detachDead() {
	b, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[2] != "fuse.frdtest" {
			continue
		}
		var st unix.Stat_t
		if err := unix.Stat(f[1], &st); errors.Is(err, syscall.ENOTCONN) {
			unix.Unmount(f[1], unix.MNT_DETACH)
		}
	}
}

// The kernel's FUSE opcodes the server answers (include/uapi/linux/fuse.h).
const (
	fuseLookup      = 1
	fuseForget      = 2
	fuseGetattr     = 3
	fuseStatfs      = 17
	fuseInit        = 26
	fuseOpendir     = 27
	fuseReaddir     = 28
	fuseReleasedir  = 29
	fuseInterrupt   = 36
	fuseBatchForget = 42
)

// pagedServer answers the kernel's requests for a PagedDir.
type pagedServer struct {
	dev      *os.File
	names    []string
	index    map[string]int // names' positions
	fail     map[string]syscall.Errno
	perReply int
	writeErr error // the first reply the kernel refused
}

var le = binary.LittleEndian

// serve reads requests until the mount is gone or the device closed.
func (s *pagedServer) serve() {
	buf := make([]byte, 1<<20)
	for {
		n, err := s.dev.Read(buf)
		if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.ENOENT) {
			continue // a request interrupted before it was read
		}
		if err != nil || n < 40 {
			return
		}
		op, unique, node := le.Uint32(buf[4:]), le.Uint64(buf[8:]), le.Uint64(buf[16:])
		reply, errno := s.answer(op, node, buf[40:n])
		if op == fuseForget || op == fuseBatchForget || op == fuseInterrupt {
			continue // no reply
		}
		out := make([]byte, 16, 16+len(reply))
		out = append(out, reply...)
		le.PutUint32(out[0:], uint32(len(out)))
		le.PutUint32(out[4:], uint32(-int32(errno)))
		le.PutUint64(out[8:], unique)
		if _, err := s.dev.Write(out); err != nil && !errors.Is(err, syscall.ENOENT) && s.writeErr == nil {
			s.writeErr = err // ENOENT: the request was interrupted
		}
	}
}

// answer is the reply's body to one request, or the errno it fails with.
func (s *pagedServer) answer(op uint32, node uint64, in []byte) ([]byte, syscall.Errno) {
	switch op {
	case fuseInit:
		out := make([]byte, 64)                  // fuse_init_out
		le.PutUint32(out[0:], 7)                 // major
		le.PutUint32(out[4:], 31)                // minor
		le.PutUint32(out[8:], le.Uint32(in[8:])) // max_readahead
		le.PutUint16(out[16:], 16)               // max_background
		le.PutUint16(out[18:], 12)               // congestion_threshold
		le.PutUint32(out[20:], 4096)             // max_write
		le.PutUint32(out[24:], 1)                // time_gran
		return out, 0
	case fuseGetattr:
		if node != 1 && (node < 2 || node-2 >= uint64(len(s.names))) {
			return nil, syscall.ENOENT
		}
		return append(make([]byte, 16), s.attr(node)...), 0 // fuse_attr_out
	case fuseLookup:
		name, _, _ := bytes.Cut(in, []byte{0})
		if errno := s.fail[string(name)]; errno != 0 {
			return nil, errno
		}
		if i, ok := s.index[string(name)]; ok && node == 1 {
			out := make([]byte, 40) // fuse_entry_out
			le.PutUint64(out[0:], uint64(i+2))
			return append(out, s.attr(uint64(i+2))...), 0
		}
		return nil, syscall.ENOENT
	case fuseOpendir:
		return make([]byte, 16), 0 // fuse_open_out, fh 0
	case fuseReaddir:
		return s.readdir(le.Uint64(in[8:]), int(le.Uint32(in[16:]))), 0
	case fuseReleasedir:
		return nil, 0
	case fuseStatfs:
		out := make([]byte, 80) // fuse_kstatfs
		le.PutUint32(out[40:], 4096)
		le.PutUint32(out[44:], 255)
		le.PutUint32(out[48:], 4096)
		return out, 0
	}
	return nil, syscall.ENOSYS
}

// attr is node's fuse_attr: 1 the directory, 2 on the files in order.
func (s *pagedServer) attr(node uint64) []byte {
	a := make([]byte, 88)
	le.PutUint64(a[0:], node)
	mode, nlink, size := uint32(syscall.S_IFDIR|0o755), uint32(2), uint64(0)
	if node >= 2 {
		mode, nlink, size = syscall.S_IFREG|0o644, 1, uint64(len(s.names[node-2]))
	}
	le.PutUint64(a[8:], size)
	le.PutUint32(a[60:], mode)
	le.PutUint32(a[64:], nlink)
	le.PutUint32(a[80:], 4096) // blksize
	return a
}

// readdir packs the entries from offset off, at most perReply of them and
// size bytes, each fuse_dirent's off the offset of the one after it.
func (s *pagedServer) readdir(off uint64, size int) []byte {
	var out []byte
	for i := off; i < uint64(len(s.names)) && i-off < uint64(s.perReply); i++ {
		name := s.names[i]
		rec := (24 + len(name) + 7) &^ 7
		if len(out)+rec > size {
			break
		}
		d := make([]byte, rec)
		le.PutUint64(d[0:], i+2)
		le.PutUint64(d[8:], i+1)
		le.PutUint32(d[16:], uint32(len(name)))
		le.PutUint32(d[20:], syscall.DT_REG)
		copy(d[24:], name)
		out = append(out, d...)
	}
	return out
}
