//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
	"golang.org/x/sys/unix"
)

// The equality suite runs fdu and the installed GNU du on the same trees
// with the same flags and compares stdout, stderr and exit status.

func gnuDu(t *testing.T) string {
	t.Helper()
	du, err := exec.LookPath("du")
	if err != nil {
		t.Skip("skipping: no du installed")
	}
	out, _ := exec.Command(du, "--version").Output()
	if !bytes.Contains(out, []byte("GNU coreutils")) {
		t.Skip("skipping: du is not GNU du")
	}
	return du
}

var (
	treeOnce sync.Once
	treeBase string
	treeErr  error
)

// duTree makes, once per test binary, the tree every case walks: a source
// tree, hard links inside it and across arguments, a sparse file, symbolic
// links of every kind, empty directories, odd names, a FIFO, and a
// directory of over 10,000 entries (which du sorts by inode).
func duTree(t *testing.T) string {
	treeOnce.Do(func() {
		base, err := os.MkdirTemp("", "fdu-equality-")
		if err != nil {
			treeErr = err
			return
		}
		treeBase = base
		treeErr = makeDuTree(filepath.Join(base, "t"))
	})
	if treeErr != nil {
		t.Fatal(treeErr)
	}
	return treeBase
}

func makeDuTree(root string) error {
	mk := func(p string) error { return os.MkdirAll(filepath.Join(root, p), 0o755) }
	write := func(p string, n int) error {
		return os.WriteFile(filepath.Join(root, p), bytes.Repeat([]byte("x"), n), 0o644)
	}
	steps := []func() error{
		func() error { return mk("src") },
		func() error {
			_, err := treegen.Make(filepath.Join(root, "src"), treegen.SourceCheckout.Small(3, 3, 5), 42)
			return err
		},
		func() error { return mk("links/a") },
		func() error { return mk("links/b") },
		func() error { return mk("other") },
		func() error { return write("links/a/h1", 20000) },
		func() error { return os.Link(filepath.Join(root, "links/a/h1"), filepath.Join(root, "links/b/h2")) },
		func() error { return os.Link(filepath.Join(root, "links/a/h1"), filepath.Join(root, "other/h3")) },
		func() error { return write("other/plain", 5000) },
		func() error {
			f, err := os.Create(filepath.Join(root, "other/sparse"))
			if err != nil {
				return err
			}
			defer f.Close()
			if err := f.Truncate(10 << 20); err != nil {
				return err
			}
			_, err = f.WriteAt([]byte("data"), 3<<20)
			return err
		},
		func() error { return mk("sym") },
		func() error { return os.Symlink("../other/plain", filepath.Join(root, "sym/to-file")) },
		func() error { return os.Symlink("../src", filepath.Join(root, "sym/to-dir")) },
		func() error { return os.Symlink("nowhere", filepath.Join(root, "sym/dangling")) },
		func() error { return os.Symlink("self", filepath.Join(root, "sym/self")) },
		// Under -L, links back to an ancestor: du leaves the cycle out
		// silently.
		func() error { return mk("sym/loop/down") },
		func() error { return os.Symlink("..", filepath.Join(root, "sym/loop/down/up")) },
		func() error { return os.Symlink("../..", filepath.Join(root, "sym/loop/down/top")) },
		func() error { return os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "sym/absolute")) },
		func() error { return mk("empty/deeper/deepest") },
		func() error { return mk("odd/sub dir") },
		func() error { return write("odd/line\nbreak", 10) },
		func() error { return write("odd/\xff\xfe bytes", 3000) },
		func() error { return write("odd/-dash", 1) },
		func() error { return write("odd/sub dir/it's", 7000) },
		func() error { return unix.Mkfifo(filepath.Join(root, "odd/fifo"), 0o644) },
		func() error { return mk("big/sub1") },
		func() error {
			for i := range 10050 {
				if err := write(fmt.Sprintf("big/e%05d", (i*7919)%10050), i%3*1000); err != nil {
					return err
				}
				if i%2500 == 0 {
					if err := mk(fmt.Sprintf("big/dir%d", i)); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// result is what one command did.
type result struct {
	stdout, stderr string
	code           int
}

func runDu(t *testing.T, du, dir string, env, args []string) result {
	t.Helper()
	return runDuEnv(t, du, dir, nil, env, args)
}

// runDuInput is runDu with stdin.
func runDuInput(t *testing.T, du, dir string, stdin io.Reader, args []string) result {
	t.Helper()
	return runDuEnv(t, du, dir, stdin, nil, args)
}

func runDuEnv(t *testing.T, du, dir string, stdin io.Reader, env, args []string) result {
	t.Helper()
	cmd := exec.Command(du, args...)
	cmd.Stdin = stdin
	cmd.Args[0] = "du" // as a user types it: du names itself by argv[0]
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// du names itself; fdu names itself.
	stderr := strings.ReplaceAll(errb.String(), "du: ", "fdu: ")
	stderr = strings.ReplaceAll(stderr, "'du --help'", "'fdu --help'")
	return result{out.String(), stderr, code}
}

// cleanEnv is the environment without the variables the cases set.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE", "POSIXLY_CORRECT", "TIME_STYLE", "LC_ALL", "LANG", "LOCPATH", "LANGUAGE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "TZ=UTC")
}

func runFdu(t *testing.T, dir string, env, args []string) result {
	t.Helper()
	t.Chdir(dir)
	for _, k := range []string{"DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE", "POSIXLY_CORRECT", "TIME_STYLE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("TZ", "UTC")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return result{out.String(), errb.String(), code}
}

func compare(t *testing.T, du result, fdu result) {
	t.Helper()
	if du.stdout != fdu.stdout {
		t.Errorf("stdout differs:\n%s", diff(du.stdout, fdu.stdout))
	}
	if du.stderr != fdu.stderr {
		t.Errorf("stderr differs:\ndu:\n%s\nfdu:\n%s", du.stderr, fdu.stderr)
	}
	if du.code != fdu.code {
		t.Errorf("exit status: du %d, fdu %d", du.code, fdu.code)
	}
}

// diff shows the first differing lines of two outputs.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var sb strings.Builder
	shown := 0
	for i := 0; i < max(len(al), len(bl)) && shown < 8; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&sb, "line %d:\n  du:  %q\n  fdu: %q\n", i+1, x, y)
			shown++
		}
	}
	fmt.Fprintf(&sb, "(du %d lines, fdu %d lines)", len(al), len(bl))
	return sb.String()
}

// TestSameAsDu runs the flag sets on the shared tree.
func TestSameAsDu(t *testing.T) {
	du := gnuDu(t)
	base := duTree(t)
	for name, list := range map[string]string{
		"list0":      "t/src\x00t/links\x00t/src\x00t/sym/to-dir\x00",
		"bad list:0": "t/src\x00\x00t/other\x00t/nowhere\x00",
		"plain0":     "t/other\x00\x00",
	} {
		if err := os.WriteFile(filepath.Join(base, name), []byte(list), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"t"}},
		{nil, []string{"-a", "t"}},
		{nil, []string{"-s", "t"}},
		{nil, []string{"-sh", "t"}},
		{nil, []string{"-h", "t"}},
		{nil, []string{"-ah", "t"}},
		{nil, []string{"--si", "-a", "t"}},
		{nil, []string{"-b", "t"}},
		{nil, []string{"-ab", "t"}},
		{nil, []string{"-k", "t"}},
		{nil, []string{"-m", "-a", "t"}},
		{nil, []string{"-BM", "t"}},
		{nil, []string{"-B1M", "t"}},
		{nil, []string{"-BKB", "-a", "t"}},
		{nil, []string{"-B1000", "t"}},
		{nil, []string{"-B", "3", "-a", "t"}},
		{nil, []string{"--block-size=KiB", "t"}},
		{nil, []string{"--block-size=MB", "--apparent-size", "t"}},
		{nil, []string{"--apparent-size", "t"}},
		{nil, []string{"--apparent-size", "-a", "-h", "t"}},
		{nil, []string{"-c", "t/src", "t/other"}},
		{nil, []string{"-ac", "t/links", "t/other"}},
		{nil, []string{"-sc", "t/links/a", "t/links/b", "t/other"}},
		{nil, []string{"-d0", "t"}},
		{nil, []string{"-d", "1", "t"}},
		{nil, []string{"--max-depth=2", "-a", "t"}},
		{nil, []string{"-S", "t"}},
		{nil, []string{"-aS", "t/src"}},
		{nil, []string{"-Sc", "t"}},
		{nil, []string{"-l", "t"}},
		{nil, []string{"-al", "t/links", "t/other"}},
		{nil, []string{"--inodes", "t"}},
		{nil, []string{"--inodes", "-a", "t/odd"}},
		{nil, []string{"-t", "8K", "t"}},
		{nil, []string{"-t", "-5000", "-c", "t/src", "t"}},
		{nil, []string{"-t", "1G", "-c", "t"}},
		{nil, []string{"--files0-from=list0"}},
		{nil, []string{"-c", "-L", "--files0-from=list0"}},
		{nil, []string{"-s", "--files0-from=bad list:0"}},
		{nil, []string{"--files0-from", "plain0"}},
		{nil, []string{"--files0-from=missing"}},
		{nil, []string{"-H", "t/sym/dangling", "t/sym/to-dir"}},
		{nil, []string{"-D", "-s", "t/sym/dangling"}},
		{nil, []string{"-L", "t/sym/dangling", "t/nowhere"}},
		{nil, []string{"-t", "-8K", "-a", "t"}},
		{nil, []string{"-a", "--threshold=1M", "t"}},
		{nil, []string{"-x", "t"}},
		{nil, []string{"--exclude=*.go", "-a", "t/src"}},
		{nil, []string{"--exclude=src", "t"}},
		{nil, []string{"--exclude=o*", "-a", "t"}},
		{nil, []string{"-0", "t"}},
		{nil, []string{"-a0", "t/odd"}},
		{nil, []string{"--time", "t"}},
		{nil, []string{"--time", "--time-style=iso", "-a", "t/other"}},
		{nil, []string{"--time", "--time-style=full-iso", "t/src"}},
		{nil, []string{"--time=ctime", "--time-style=+%s", "t"}},
		{nil, []string{"-sch", "t/src", "t/links"}},
		{nil, []string{"-abc", "t/sym"}},
		{nil, []string{"-H", "-a", "t/sym/to-dir"}},
		{nil, []string{"-a", "t/sym/to-dir"}},
		{nil, []string{"-D", "-s", "t/sym/to-file"}},
		{nil, []string{"-P", "-a", "t/sym"}},
		{nil, []string{"-L", "t/sym"}},
		{nil, []string{"-Ls", "t/sym"}},
		{nil, []string{"-La", "t/sym/loop"}},
		{nil, []string{"-La", "t/sym"}},
		{nil, []string{"-L", "-a", "t"}},
		{nil, []string{"-Ls", "t"}},
		{nil, []string{"t", "t"}},
		{nil, []string{"t/src", "t"}},
		{nil, []string{"t/other/h3", "t/links"}},
		{nil, []string{"-a", "t/other/plain", "t/missing", "t/other"}},
		{nil, []string{"-a", "t/big"}},
		{[]string{"DU_BLOCK_SIZE=human-readable"}, []string{"t"}},
		{[]string{"BLOCK_SIZE=1M"}, []string{"t"}},
		{[]string{"BLOCKSIZE=512"}, []string{"-a", "t/other"}},
		{[]string{"POSIXLY_CORRECT=1"}, []string{"t"}},
		{[]string{"DU_BLOCK_SIZE=1K", "BLOCK_SIZE=1M"}, []string{"-s", "t"}},
		{[]string{"POSIXLY_CORRECT=1"}, []string{"-k", "t"}},
		{nil, []string{"-s", "-a", "t"}},
		{nil, []string{"-s", "-d", "1", "t"}},
		{nil, []string{"-s", "-d", "0", "t"}},
		{nil, []string{"--max-depth=x", "t"}},
		{nil, []string{"-B", "0", "t"}},
		{nil, []string{"--block-size=x", "t"}},
		{nil, []string{"-t", "foo", "t"}},
		{nil, []string{"--threshold=-0", "t"}},
		{nil, []string{"-t", "-0", "t"}},
		{nil, []string{"--time=bogus", "t"}},
	}
	for _, c := range cases {
		name := strings.Join(append(append([]string{}, c.env...), c.args...), " ")
		t.Run(name, func(t *testing.T) {
			want := runDu(t, du, base, c.env, c.args)
			got := runFdu(t, base, c.env, c.args)
			compare(t, want, got)
		})
	}
}

// TestExcludedUnstatableAsDu: under -L, dangling and looping links that
// --exclude leaves out are not reported, as du matches before it stats.
func TestExcludedUnstatableAsDu(t *testing.T) {
	du := gnuDu(t)
	base := duTree(t)
	for _, args := range [][]string{
		{"-L", "--exclude=dang*", "t/sym"}, {"-Ls", "--exclude=self", "t/sym"}, {"-La", "--exclude=*l[fo]*", "t/sym"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			compare(t, runDu(t, du, base, nil, args), runFdu(t, base, nil, args))
		})
	}
}

// helperEnv makes the test binary run fdu itself, for the cases that must
// run as an unprivileged user.
const helperEnv = "FDU_TEST_HELPER_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(helperEnv); ok {
		if dir := os.Getenv(helperEnv + "_DIR"); dir != "" {
			if err := os.Chdir(dir); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		if os.Getenv(helperEnv+"_NOBODY") != "" {
			asNobody() // in a tmux pane, whose terminal stays open to it
		}
		os.Exit(run(strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr))
	}
	// fdu runs in the C locale, as du does (cleanEnv), unless a test
	// says otherwise: not in the locale of the shell that ran the tests.
	os.Setenv("LC_ALL", "C")
	code := m.Run()
	if treeBase != "" {
		os.RemoveAll(treeBase)
	}
	os.Exit(code)
}

// TestUnreadableAsNobody runs du and fdu as nobody on a tree with a
// directory that cannot be read (and a link to it) and one that can be
// read but not searched.
func TestUnreadableAsNobody(t *testing.T) {
	du := gnuDu(t)
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run du and fdu as nobody")
	}
	top := testfs.WorldDir(t)
	root := filepath.Join(top, "u")
	for _, d := range []string{"ok/sub", "closed/inside", "z"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "ok", "f"), make([]byte, 9000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "closed"), 0o700); err != nil {
		t.Fatal(err)
	}
	// A link to it, followed under -H, -D and -L: the directory's own
	// size counted, not the link's.
	if err := os.Symlink("closed", filepath.Join(root, "lnk")); err != nil {
		t.Fatal(err)
	}
	// Read but not searched: du lists its names and cannot stat any of
	// them, reporting each.
	for _, p := range []string{"listonly/sub/x", "listonly/f1", "listonly/f2", "listonly/link"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("data"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(root, "listonly", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f1", filepath.Join(root, "listonly", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "listonly"), 0o444); err != nil {
		t.Fatal(err)
	}
	// The same holding a directory alone (coreutils' tests/du/no-x.sh):
	// the listing stats nothing, and the subdirectory cannot be stat'ed.
	if err := os.MkdirAll(filepath.Join(root, "nox", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "nox"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Under -L, dangling links (errors of mix's own entries) among
	// subdirectories with errors inside: du reports each where its walk
	// meets it, in mix's order.
	for i := range 6 {
		closed := filepath.Join(root, "mix", fmt.Sprint("s", i), "closed")
		if err := os.MkdirAll(closed, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(closed, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("nowhere", filepath.Join(root, "mix", fmt.Sprint("l", i))); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"u"}, {"-a", "u"}, {"-sc", "u", "u/closed"}, {"-s", "u/listonly"}, {"--inodes", "-a", "u"},
		{"u/nox"}, {"-s", "u/nox"}, {"-a", "u/nox"},
		{"-L", "u/mix"}, {"-Ls", "u/mix"}, {"-La", "u/mix", "u/listonly"},
		{"-Hb", "u/lnk"}, {"-Db", "u/lnk"}, {"-Lb", "u/lnk"}, {"-b", "u/lnk"}, {"-Hsb", "u/lnk"}, {"-Lsb", "u/lnk"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(du, args...)
			cmd.Args[0] = "du"
			cmd.Dir = top
			cmd.Env = cleanEnv()
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			code := 0
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Skipf("skipping: cannot run du as nobody: %v", err)
				}
				code = ee.ExitCode()
			}
			want := result{out.String(), strings.ReplaceAll(errb.String(), "du: ", "fdu: "), code}

			got := runHelper(t, top, args)
			compare(t, want, got)
		})
	}
}

// runHelper runs fdu as nobody in dir through the test binary.
func runHelper(t *testing.T, dir string, args []string) result {
	t.Helper()
	out := testfs.RunAsNobodyResult(t, dir, helperEnv+"="+strings.Join(args, "\x1f"), helperEnv+"_DIR="+dir)
	return result{out.Stdout, out.Stderr, out.Code}
}

// TestOneFileSystemMount puts a tmpfs inside the tree: -x leaves it out,
// as du does.
func TestOneFileSystemMount(t *testing.T) {
	du := gnuDu(t)
	base := t.TempDir()
	root := filepath.Join(base, "m")
	if err := os.MkdirAll(filepath.Join(root, "mnt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "f"), make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	testfs.MountTmpfs(t, filepath.Join(root, "mnt"))
	if err := os.MkdirAll(filepath.Join(root, "mnt", "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "mnt", "in", "g"), make([]byte, 70000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-x", "m"}, {"-ax", "m"}, {"m"}, {"-x", "m/mnt"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			compare(t, runDu(t, du, base, nil, args), runFdu(t, base, nil, args))
		})
	}
}

// TestAtimeSameAsDu compares --time=atime, which fdu reads through each
// directory's descriptor, on a tmpfs mounted noatime so that reading the
// tree leaves the access times as set: each a different nanosecond.
func TestAtimeSameAsDu(t *testing.T) {
	du := gnuDu(t)
	base := t.TempDir()
	testfs.MountTmpfs(t, base, "noatime")
	root := filepath.Join(base, "a")
	for _, p := range []string{"x/f1", "x/y/f2", "z/f3", "f4"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("x/y/f2", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	mtime := time.Now().Add(-2 * time.Hour).Truncate(time.Second)
	i := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		i++
		atime := mtime.Add(time.Hour + time.Duration(i)*time.Minute + time.Duration(i*1234567))
		ts := []unix.Timespec{unix.NsecToTimespec(atime.UnixNano()), unix.NsecToTimespec(mtime.UnixNano())}
		return unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--time=atime", "--time-style=full-iso", "-a", "a"},
		{"--time=access", "--time-style=+%s.%N", "a"},
		{"--time=use", "--time-style=full-iso", "-s", "a"},
		{"-L", "--time=atime", "--time-style=full-iso", "-a", "a"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			compare(t, runDu(t, du, base, nil, args), runFdu(t, base, nil, args))
		})
	}
}

// TestBindMountCycle mounts a directory again inside itself: du leaves the
// cycle out without a word, and so must fdu.
func TestBindMountCycle(t *testing.T) {
	du := gnuDu(t)
	base := t.TempDir()
	root := filepath.Join(base, "c")
	if err := os.MkdirAll(filepath.Join(root, "b", "again"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "f"), make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	testfs.BindMount(t, root, filepath.Join(root, "b", "again"))
	for _, args := range [][]string{{"c"}, {"-a", "c"}, {"-s", "c"}, {"-L", "c"}, {"--inodes", "c"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			compare(t, runDu(t, du, base, nil, args), runFdu(t, base, nil, args))
		})
	}
}
