package tree

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompNotif and seccompNotifResp are the kernel's struct seccomp_notif
// and struct seccomp_notif_resp.
type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Nr    int32
	Arch  uint32
	IP    uint64
	Args  [6]uint64
}

type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// atFirstOpenat runs fn on a thread of its own whose openat calls relative
// to a directory descriptor (not AT_FDCWD) each wait, under a seccomp
// filter, for the test to let them go on as made; before the first it
// runs between. So a name that fn stats and then opens from its parent's
// descriptor is changed between the two every time, not by a race that
// may be lost. It skips the test where seccomp's user notifications are
// not to be had, and fails it if between never ran.
func atFirstOpenat(t *testing.T, between, fn func()) {
	t.Helper()
	// nr == openat && (uint32)args[0] != AT_FDCWD: notify; else allow.
	// seccomp_data's args begin at byte 16; the low half of args[0] is
	// at 20 on a big-endian machine.
	low := uint32(16)
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		low += 4
	}
	fdcwd := int32(unix.AT_FDCWD)
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_OPENAT, Jt: 0, Jf: 3},
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: low},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: uint32(fdcwd), Jt: 1, Jf: 0},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_USER_NOTIF},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	// fn's end is told through a pipe, which the wait polls with the
	// filter's listener.
	done, ended, err := os.Pipe()
	must(t, err)
	defer done.Close()
	defer ended.Close()
	type installed struct {
		fd  int
		err error
	}
	inst := make(chan installed, 1)
	go func() {
		// Never unlocked: the thread, filtered, ends with the goroutine.
		runtime.LockOSThread()
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			inst <- installed{-1, err}
			return
		}
		fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&prog)))
		if errno != 0 {
			inst <- installed{-1, errno}
			return
		}
		inst <- installed{int(fd), nil}
		fn()
		ended.Write([]byte{0})
	}()
	in := <-inst
	if in.err != nil {
		t.Skipf("skipping: a seccomp filter with a listener: %v", in.err)
	}
	lfd := in.fd
	defer unix.Close(lfd)
	ran, noContinue := false, false
	for {
		fds := []unix.PollFd{{Fd: int32(lfd), Events: unix.POLLIN}, {Fd: int32(done.Fd()), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, -1); err == unix.EINTR {
			continue
		} else if err != nil {
			t.Fatalf("poll: %v", err)
		}
		if fds[0].Revents&unix.POLLIN != 0 {
			var req seccompNotif
			if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(lfd), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&req))); errno != 0 {
				continue // the call was interrupted, to be made again
			}
			if !ran {
				between()
				ran = true
			}
			resp := seccompNotifResp{ID: req.ID, Flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
			if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(lfd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp))); errno == unix.EINVAL {
				// Before Linux 5.5 a call cannot be let go on as made:
				// it is failed instead, and the test skipped below.
				resp = seccompNotifResp{ID: req.ID, Error: -int32(unix.ENOSYS)}
				unix.Syscall(unix.SYS_IOCTL, uintptr(lfd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
				noContinue = true
			}
			continue
		}
		if fds[1].Revents != 0 {
			break // fn returned
		}
	}
	if noContinue {
		t.Skip("skipping: seccomp cannot let a stopped call go on here (SECCOMP_USER_NOTIF_FLAG_CONTINUE, Linux 5.5)")
	}
	if !ran {
		t.Fatal("no openat from a directory descriptor to stop at")
	}
}

// TestRootSwappedBetweenStatAndOpen: the directory given to a clone or a
// permission walk is swapped, between the stat that finds it a directory
// and its open, for a symbolic link, which is refused as one swapped in
// (ErrSymlink), or for a regular file, which is not a link (ENOTDIR).
func TestRootSwappedBetweenStatAndOpen(t *testing.T) {
	for _, swapIn := range []string{"link", "file"} {
		for what, run := range map[string]func(dir string) error{
			"Clone": func(dir string) error {
				_, err := Clone(dir, filepath.Join(filepath.Dir(dir), "dst"), &Options{Method: Copy, Workers: 1})
				return err
			},
			"FilesReadOnly": func(dir string) error { _, err := FilesReadOnly(dir, 1); return err },
		} {
			t.Run(swapIn+"/"+what, func(t *testing.T) {
				base := t.TempDir()
				dir := filepath.Join(base, "dir")
				must(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
				other := filepath.Join(base, "other")
				if swapIn == "link" {
					must(t, os.Symlink("dir", other))
				} else {
					must(t, os.WriteFile(other, nil, 0o644))
				}
				var err error
				atFirstOpenat(t, func() {
					must(t, unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, other, unix.RENAME_EXCHANGE))
				}, func() { err = run(dir) })
				if swapIn == "link" {
					if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), "swapped in") {
						t.Errorf("%s of a directory swapped for a link: %v, want ErrSymlink, swapped in", what, err)
					}
				} else if !errors.Is(err, unix.ENOTDIR) || errors.Is(err, ErrSymlink) {
					t.Errorf("%s of a directory swapped for a file: %v, want ENOTDIR, not ErrSymlink", what, err)
				}
				if _, err := os.Lstat(filepath.Join(base, "dst")); !os.IsNotExist(err) {
					t.Errorf("%s made its destination: %v", what, err)
				}
			})
		}
	}
}
