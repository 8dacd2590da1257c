//go:build linux

// Package testfs gives the project's tests what plain temporary
// directories cannot: loop-mounted file systems, a tmpfs, a FUSE directory
// served a few entries per read, and a helper run as an unprivileged user.
// Each skips the test, saying why, where it cannot be had (not root, no
// mkfs, a failed mount).
package testfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// LimitOpenFiles lowers this process's soft RLIMIT_NOFILE to n until the
// test ends.
func LimitOpenFiles(t testing.TB, n uint64) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
}

// LimitFreeFiles sets RLIMIT_NOFILE so that free more descriptors may be
// opened than the process holds now, whatever the runtime and the test
// harness hold (a fresh Go program holds about 7: `ulimit -n 16` leaves it
// 9), and restores it when the test ends.
func LimitFreeFiles(t testing.TB, free uint64) {
	t.Helper()
	LimitOpenFiles(t, uint64(OpenFiles(t))+free)
}

// OpenFiles counts this process's open descriptors, for a test that checks
// a walk leaves none behind.
func OpenFiles(t testing.TB) int {
	t.Helper()
	des, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(des) - 1 // less ReadDir's own
}

// WorldDir returns a new directory that every user may enter, with its
// path; os.TempDir's per-test directories are private to root.
func WorldDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "frd-world-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// RunAsNobody runs a copy of the test binary, placed in dir (which nobody
// must be able to enter), as user and group 65534 with env added to the
// environment, and returns what it printed. The binary's TestMain is
// expected to notice env and act as the helper. It skips the test when not
// root or when the helper cannot be started, and fails it when the helper
// fails: what failed is the code under test, run as nobody.
func RunAsNobody(t testing.TB, dir string, env ...string) []byte {
	t.Helper()
	r := RunAsNobodyResult(t, dir, env...)
	if r.Code != 0 {
		t.Fatalf("the helper run as nobody failed with status %d: %s%s", r.Code, r.Stdout, r.Stderr)
	}
	return []byte(r.Stdout + r.Stderr)
}

// Result is what a helper did: its output streams and exit status.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// RunAsNobodyResult is RunAsNobody keeping the streams apart and the exit
// status, for a helper that may fail on purpose.
func RunAsNobodyResult(t testing.TB, dir string, env ...string) Result {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run a helper as nobody")
	}
	helper, err := helperCopy(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(helper)
	cmd.Env = append(os.Environ(), env...)
	if parent := os.Getenv("GOCOVERDIR"); parent != "" {
		// A binary built for coverage (go test -cover, as mutation
		// testing runs it) writes its counters there at exit, or says
		// on stderr that it could not: a directory nobody may write.
		// What the helper ran is then added to the test's own.
		cover := filepath.Join(dir, "gocoverdir")
		if err := os.MkdirAll(cover, 0o777); err != nil {
			t.Fatalf("a coverage directory for the helper: %v", err)
		}
		if err := os.Chmod(cover, 0o777); err != nil {
			t.Fatalf("a coverage directory for the helper: %v", err)
		}
		cmd.Env = append(cmd.Env, "GOCOVERDIR="+cover)
		defer mergeCoverage(t, cover, parent)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return Result{out.String(), errb.String(), ee.ExitCode()}
	case err != nil:
		t.Skipf("skipping: cannot run the helper as nobody: %v", err)
	}
	return Result{out.String(), errb.String(), 0}
}

// mergeCoverage moves the coverage files a helper wrote in from into the
// test's directory to, whose profile go test makes of what it holds.
func mergeCoverage(t testing.TB, from, to string) {
	des, err := os.ReadDir(from)
	if err != nil {
		t.Errorf("the helper's coverage: %v", err)
		return
	}
	for _, de := range des {
		// A meta-data file is the binary's, already there if the test
		// wrote its own; counters files are named for the process.
		if err := copyFile(filepath.Join(to, de.Name()), filepath.Join(from, de.Name())); err != nil && !errors.Is(err, fs.ErrExist) {
			t.Errorf("the helper's coverage: %v", err)
		}
		os.Remove(filepath.Join(from, de.Name()))
	}
}

// helperCopy copies the test binary into dir once and returns its path.
func helperCopy(dir string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	helper := filepath.Join(dir, "helper")
	if _, err := os.Stat(helper); err != nil {
		if err := copyFile(helper, exe); err != nil {
			return "", err
		}
	}
	return helper, nil
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// LoopMount mounts a new image of the file system fstype (64 MiB, or
// 320 MiB for XFS, whose mkfs refuses less; the file is sparse), made by
// mkfs.fstype with mkfsArgs, on a temporary directory, and unmounts it when
// the test ends.
func LoopMount(t testing.TB, fstype string, mkfsArgs ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: loop-mounting an image needs root")
	}
	mkfs, err := exec.LookPath("mkfs." + fstype)
	if err != nil {
		t.Skipf("skipping: no mkfs.%s: %v", fstype, err)
	}
	work := t.TempDir()
	img := filepath.Join(work, "fs.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	size := int64(64 << 20)
	if fstype == "xfs" || fstype == "btrfs" {
		size = 320 << 20 // their smallest useful sizes are larger
	}
	if err := os.Truncate(img, size); err != nil {
		t.Fatal(err)
	}
	quiet := []string{"-q"}
	if fstype == "vfat" || fstype == "exfat" {
		quiet = nil // their mkfs has no -q
	}
	args := append(append(quiet, mkfsArgs...), img)
	if out, err := exec.Command(mkfs, args...).CombinedOutput(); err != nil {
		t.Skipf("skipping: mkfs.%s failed: %v: %s", fstype, err, out)
	}
	mnt := filepath.Join(work, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	mount(t, mnt, "-o", "loop", img, mnt)
	return mnt
}

// MountTmpfs mounts a new tmpfs on the existing directory dir, with the
// mount options given (such as "noatime"), and unmounts it when the test
// ends.
func MountTmpfs(t testing.TB, dir string, options ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a tmpfs needs root")
	}
	args := []string{"-t", "tmpfs"}
	if len(options) > 0 {
		args = append(args, "-o", strings.Join(options, ","))
	}
	mount(t, dir, append(args, "none", dir)...)
}

// BindMount mounts the directory (or file) src again on the existing one
// dir, and unmounts it when the test ends.
func BindMount(t testing.TB, src, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: a bind mount needs root")
	}
	mount(t, dir, "--bind", src, dir)
}

func mount(t testing.TB, mnt string, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("skipping: mount %q failed: %v: %s", args, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
}

// SwapEnv, set in a helper's environment to "a\x1fb", makes Swap's helper
// exchange the names a and b again and again.
const SwapEnv = "FRD_TEST_SWAP"

// SwapIfHelper is for a test binary's TestMain: when this process is a
// swapping helper (SwapEnv set), it exchanges the two names with
// renameat2(RENAME_EXCHANGE) until it is killed, or for a minute at most,
// and exits; otherwise it returns at once.
func SwapIfHelper() {
	v := os.Getenv(SwapEnv)
	if v == "" {
		return
	}
	a, b, _ := strings.Cut(v, "\x1f")
	end := time.Now().Add(time.Minute)
	for time.Now().Before(end) {
		for range 1000 {
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				os.Stderr.WriteString("swap: " + err.Error() + "\n")
				os.Exit(1)
			}
		}
	}
	os.Exit(0)
}

// SwapAsNobody starts a copy of the test binary, placed in dir (which
// nobody must be able to enter), as user and group 65534, exchanging the
// names a and b in a loop (its TestMain calls SwapIfHelper), as another
// user racing the test would; it is killed when the test ends. It skips
// the test when not root.
func SwapAsNobody(t testing.TB, dir, a, b string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to race as nobody")
	}
	helper, err := helperCopy(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(helper)
	cmd.Env = append(os.Environ(), SwapEnv+"="+a+"\x1f"+b)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Skipf("skipping: cannot run the helper as nobody: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The helper has started swapping once both names have changed
	// places at least once: wait for that, or for its failure.
	st0, err := os.Lstat(a)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if st, err := os.Lstat(a); err == nil && !os.SameFile(st, st0) {
			return
		}
		if cmd.ProcessState != nil || time.Now().After(deadline) {
			t.Fatalf("the swapping helper did not start: %s", errb.String())
		}
		time.Sleep(time.Millisecond)
	}
}

// Chain makes levels nested directories named name under root, each made
// from the one above it so that the chain may go deeper than PATH_MAX, and
// at each level beside the next one the directories dirs and the empty
// files files. It returns the deepest directory open; the caller closes it.
func Chain(t testing.TB, root, name string, levels int, dirs, files []string) int {
	t.Helper()
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range levels {
		for _, d := range append([]string{name}, dirs...) {
			if err := unix.Mkdirat(fd, d, 0o755); err != nil {
				unix.Close(fd)
				t.Fatal(err)
			}
		}
		for _, f := range files {
			ffd, err := unix.Openat(fd, f, unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
			if err != nil {
				unix.Close(fd)
				t.Fatal(err)
			}
			unix.Close(ffd)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	return fd
}
