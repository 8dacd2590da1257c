package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// The findings, one test each (the cp -a comparison is in
// cpa_linux_test.go).

func stat(t *testing.T, p string) *syscall.Stat_t {
	t.Helper()
	fi, err := os.Lstat(p)
	must(t, err)
	return fi.Sys().(*syscall.Stat_t)
}

// within runs fn, failing the test if it has not returned in d (a clone
// that recurses without end or hangs on a FIFO).
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v", d)
	}
}

// TestSetIDNeverGranted: a set-id file whose owner cannot be kept loses
// the bit; one whose owner is kept keeps it.
func TestSetIDNeverGranted(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to own a file as another user")
	}
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	for name, mode := range map[string]uint32{"suid": 0o4755, "sgid": 0o2755} {
		p := filepath.Join(src, name)
		must(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
		must(t, os.Chown(p, 65534, 65534))
		must(t, unix.Chmod(p, mode))
	}
	for _, m := range []Method{Copy, Auto} {
		for _, noOwner := range []bool{true, false} {
			dst := filepath.Join(t.TempDir(), "dst")
			_, err := Clone(src, dst, &Options{Method: m, NoOwner: noOwner})
			must(t, err)
			for _, name := range []string{"suid", "sgid"} {
				st := stat(t, filepath.Join(dst, name))
				setid := st.Mode & (unix.S_ISUID | unix.S_ISGID)
				switch {
				case st.Uid != 65534 && st.Mode&unix.S_ISUID != 0, st.Gid != 65534 && st.Mode&unix.S_ISGID != 0:
					t.Errorf("%s, NoOwner %v: %s is %o owned by %d:%d: a set-id bit granted to another owner", m, noOwner, name, st.Mode, st.Uid, st.Gid)
				case !noOwner && setid == 0 && stat(t, filepath.Join(src, name)).Ino != st.Ino:
					t.Errorf("%s: %s lost its set-id bit although its owner was kept (%o)", m, name, st.Mode)
				}
			}
		}
	}
}

// TestIntoItself: a destination inside the source is refused before
// anything is made.
func TestIntoItself(t *testing.T) {
	src := filepath.Join(t.TempDir(), "T")
	must(t, os.MkdirAll(filepath.Join(src, "a", "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "a", "f"), []byte("f"), 0o644))
	// Nothing made at any point, not only nothing left: no work directory
	// and no directory of the source visited.
	var made []string
	testHookWorkMade = func(path string) { made = append(made, path) }
	testHookDir = func(d *walk.Dir) { made = append(made, "visited "+d.Path) }
	defer func() { testHookWorkMade, testHookDir = nil, nil }()
	for _, dst := range []string{filepath.Join(src, "inner"), filepath.Join(src, "a", "b", "inner")} {
		made = nil
		before := strings.Join(dirNames(t, filepath.Dir(dst)), " ")
		var err error
		within(t, 10*time.Second, func() { _, err = Clone(src, dst, &Options{Method: Hardlink, Workers: 1}) })
		if !errors.Is(err, ErrIntoItself) {
			t.Errorf("Clone(%s, %s): %v, want ErrIntoItself", src, dst, err)
		}
		if len(made) != 0 {
			t.Errorf("Clone(%s, %s) made or visited before refusing: %q", src, dst, made)
		}
		if after := strings.Join(dirNames(t, filepath.Dir(dst)), " "); after != before {
			t.Errorf("left behind: %q, was %q", after, before)
		}
	}
}

// TestTwoLinksKept: a file with exactly two links (the common case) is
// copied as one inode with two links, as are those with more.
func TestTwoLinksKept(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "d"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "a"), []byte("two"), 0o644))
	must(t, os.Link(filepath.Join(src, "a"), filepath.Join(src, "d", "b")))
	dst := filepath.Join(base, "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	must(t, err)
	a, b := stat(t, filepath.Join(dst, "a")), stat(t, filepath.Join(dst, "d", "b"))
	if a.Ino != b.Ino || a.Nlink != 2 {
		t.Errorf("a is inode %d with %d links, d/b inode %d; want one inode with 2 links", a.Ino, a.Nlink, b.Ino)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	must(t, err)
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// TestSparseCopy: a copy keeps holes.
func TestSparseCopy(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	f, err := os.Create(filepath.Join(src, "sparse"))
	must(t, err)
	for _, off := range []int64{0, 100 << 20, 255 << 20} {
		_, err := f.WriteAt([]byte(strings.Repeat("data", 1024)), off)
		must(t, err)
	}
	must(t, f.Truncate(256<<20))
	must(t, f.Close())
	dst := filepath.Join(base, "dst")
	_, err = Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	got, want := stat(t, filepath.Join(dst, "sparse")), stat(t, filepath.Join(src, "sparse"))
	if got.Size != want.Size || got.Blocks > want.Blocks+128 {
		t.Errorf("copy: %d bytes in %d blocks; the source has %d in %d", got.Size, got.Blocks, want.Size, want.Blocks)
	}
	a, _ := os.ReadFile(filepath.Join(src, "sparse"))
	b, _ := os.ReadFile(filepath.Join(dst, "sparse"))
	if string(a) != string(b) {
		t.Error("the copy's contents differ")
	}
}

// TestHardLinksKept: 40 names on 10 inodes stay 10 inodes under a copy,
// and become 40 under NoHardLinks.
func TestHardLinksKept(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	for i := range 3 {
		must(t, os.MkdirAll(filepath.Join(src, fmt.Sprint("d", i)), 0o755))
	}
	for i := range 10 {
		d := filepath.Join(src, fmt.Sprint("d", i%3))
		first := filepath.Join(d, fmt.Sprint("f", i))
		must(t, os.WriteFile(first, []byte(fmt.Sprint(i)), 0o644))
		for j := range 3 {
			must(t, os.Link(first, filepath.Join(src, fmt.Sprint("d", (i+j+1)%3), fmt.Sprint("f", i, "-", j))))
		}
	}
	for _, tc := range []struct {
		opts   Options
		inodes int
	}{{Options{Method: Copy, Workers: 4}, 10}, {Options{Method: Copy, NoHardLinks: true}, 40}, {Options{Method: Auto, Workers: 2}, 10}} {
		dst := filepath.Join(base, fmt.Sprint("dst", tc.inodes, tc.opts.Workers))
		res, err := Clone(src, dst, &tc.opts)
		must(t, err)
		inodes := map[uint64]int{}
		must(t, filepath.Walk(dst, func(p string, fi os.FileInfo, err error) error {
			must(t, err)
			if fi.Mode().IsRegular() {
				inodes[fi.Sys().(*syscall.Stat_t).Ino]++
			}
			return nil
		}))
		if len(inodes) != tc.inodes || res.Files != 40 {
			t.Errorf("%+v: %d inodes, %d files; want %d and 40", tc.opts, len(inodes), res.Files, tc.inodes)
		}
	}
}

// TestPreserveOptions: each No option leaves out what it names, and only
// that.
func TestPreserveOptions(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	metaTree(t, src)
	for _, o := range []Options{{NoOwner: true}, {NoTimes: true}, {NoXattrs: true}, {NoACLs: true}} {
		o.Method, o.Specials = Copy, ReproduceSpecials
		dst := filepath.Join(base, fmt.Sprintf("%v%v%v%v", o.NoOwner, o.NoTimes, o.NoXattrs, o.NoACLs))
		_, err := Clone(src, dst, &o)
		must(t, err)
		plain, acl, suid := stat(t, filepath.Join(dst, "plain")), xattrString(t, filepath.Join(dst, "acl")), stat(t, filepath.Join(dst, "suid"))
		if o.NoOwner != (suid.Uid == 0) || o.NoOwner != (suid.Mode&unix.S_ISUID == 0) {
			t.Errorf("%+v: suid is %o owned by %d", o, suid.Mode, suid.Uid)
		}
		if o.NoTimes != (plain.Mtim.Nano() != stat(t, filepath.Join(src, "plain")).Mtim.Nano()) {
			t.Errorf("%+v: plain's mtime %v", o, time.Unix(0, plain.Mtim.Nano()))
		}
		if (o.NoXattrs || o.NoACLs) != !strings.Contains(acl, "posix_acl_access") {
			t.Errorf("%+v: acl's attributes %q", o, acl)
		}
		if o.NoXattrs != !strings.Contains(xattrString(t, filepath.Join(dst, "plain")), "user.test") {
			t.Errorf("%+v: plain's attributes %q", o, xattrString(t, filepath.Join(dst, "plain")))
		}
	}
}

// TestRefusedXattrWarns clones onto ramfs, which keeps no extended
// attributes: the clone succeeds and reports each one it could not set.
func TestRefusedXattrWarns(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), []byte("f"), 0o644))
	if err := unix.Lsetxattr(filepath.Join(src, "f"), "user.k", []byte("v"), 0); err != nil {
		t.Skipf("skipping: no user xattrs here: %v", err)
	}
	mnt := filepath.Join(base, "ramfs")
	must(t, os.Mkdir(mnt, 0o755))
	if err := unix.Mount("ramfs", mnt, "ramfs", 0, ""); err != nil {
		t.Skipf("skipping: cannot mount a ramfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(mnt, unix.MNT_DETACH) })
	res, err := Clone(src, filepath.Join(mnt, "dst"), &Options{Method: Copy})
	must(t, err)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "user.k") {
		t.Errorf("warnings %v, want one naming user.k", res.Warnings)
	}
}

// TestErrorsNameTheirSide: an error names the full path of what failed
// and whether it is in the source or the destination.
func TestErrorsNameTheirSide(t *testing.T) {
	src := wideTree(t, 3)
	var gone string
	testHookDir = func(d *walk.Dir) {
		for _, e := range d.Entries {
			if e.Name == "f" && gone == "" {
				// Replaced since the listing by what is no regular file.
				gone = filepath.Join(d.Path, e.Name)
				os.Remove(gone)
				unix.Mkfifo(gone, 0o644)
			}
		}
	}
	defer func() { testHookDir = nil }()
	_, err := Clone(src, filepath.Join(t.TempDir(), "dst"), &Options{Method: Copy, Workers: 1})
	var te *Error
	if !errors.As(err, &te) || te.Role != "source" || te.Path != gone || !strings.Contains(err.Error(), "source "+gone) {
		t.Errorf("a source file replaced mid-clone: %v, want the source path %s", err, gone)
	}
	testHookDir = nil
	_, err = Clone(src, filepath.Join(t.TempDir(), "dst"), &Options{Method: Copy, Specials: FailOnSpecials})
	fifo := filepath.Join(src, "d2", "e", "fifo")
	if !errors.As(err, &te) || te.Role != "source" || te.Path != fifo {
		t.Errorf("a FIFO under FailOnSpecials: %v, want the source path %s", err, fifo)
	}
}

// TestFIFOSwappedIn: a regular file swapped for a FIFO after its listing
// fails the clone at once rather than blocking on the open.
func TestFIFOSwappedIn(t *testing.T) {
	src := wideTree(t, 2)
	testHookDir = func(d *walk.Dir) {
		for _, e := range d.Entries {
			if e.Name == "f" {
				p := filepath.Join(d.Path, e.Name)
				os.Remove(p)
				unix.Mkfifo(p, 0o644)
			}
		}
	}
	defer func() { testHookDir = nil }()
	var err error
	within(t, 10*time.Second, func() { _, err = Clone(src, filepath.Join(t.TempDir(), "dst"), &Options{Method: Copy}) })
	if err == nil || !strings.Contains(err.Error(), "changed from a regular file") {
		t.Errorf("a FIFO swapped in: %v", err)
	}
}

// cloneHelperEnv makes the test binary, run as nobody, clone and print
// the outcome: "src\x1fdst\x1fmethod".
const cloneHelperEnv = "TREE_CLONE_HELPER"

type helperOutcome struct {
	Res Result
	Err string
}

func TestMain(m *testing.M) {
	testfs.SwapIfHelper()
	if args := os.Getenv(deepChildEnv); args != "" {
		deepChild(args)
		os.Exit(0)
	}
	if args := os.Getenv(linkHelperEnv); args != "" {
		from, to, _ := strings.Cut(args, "\x1f")
		if err := os.Link(from, to); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if args := os.Getenv(cloneHelperEnv); args != "" {
		a := strings.Split(args, "\x1f")
		specials, _ := strconv.Atoi(a[3])
		res, err := Clone(a[0], a[1], &Options{Method: Method(a[2]), Workers: 1, Specials: Specials(specials)})
		out := helperOutcome{Res: res}
		if err != nil {
			out.Err = err.Error()
		}
		res.Warnings = nil
		json.NewEncoder(os.Stdout).Encode(out)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func cloneAsNobody(t *testing.T, world, src, dst string, m Method, specials Specials) helperOutcome {
	t.Helper()
	arg := strings.Join([]string{src, dst, string(m), strconv.Itoa(int(specials))}, "\x1f")
	out := testfs.RunAsNobody(t, world, cloneHelperEnv+"="+arg)
	// The first JSON value: a binary built for coverage adds to its output
	// that it could not write there as nobody.
	var o helperOutcome
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&o); err != nil {
		t.Fatalf("helper: %v: %s", err, out)
	}
	return o
}

// TestAsNobody clones as an unprivileged user: a failed clone whose
// finished directories are read-only leaves nothing; Auto copies the
// files the kernel will not let it link (fs.protected_hardlinks); a
// root-owned set-uid file comes out owned by the user, without the bit.
func TestAsNobody(t *testing.T) {
	world := testfs.WorldDir(t)
	src := filepath.Join(world, "src")
	must(t, os.Mkdir(src, 0o755))
	for i := range 40 {
		d := filepath.Join(src, fmt.Sprint("ro", i))
		must(t, os.Mkdir(d, 0o755))
		must(t, os.WriteFile(filepath.Join(d, "f"), []byte("f"), 0o644))
		must(t, os.Chmod(d, 0o555))
	}
	must(t, os.WriteFile(filepath.Join(src, "suid"), []byte("#!/bin/sh\n"), 0o755))
	must(t, unix.Chmod(filepath.Join(src, "suid"), 0o4755))
	out := filepath.Join(world, "out")
	must(t, os.Mkdir(out, 0o755))
	must(t, os.Chmod(out, 0o777))

	o := cloneAsNobody(t, world, src, filepath.Join(out, "auto"), Auto, FailOnSpecials)
	if o.Err != "" || o.Res.Method != Hardlink || o.Res.Copied != 41 {
		t.Errorf("Auto as nobody: %+v, want hard links refused and 41 files copied", o)
	}
	st := stat(t, filepath.Join(out, "auto", "suid"))
	if st.Uid != 65534 || st.Mode&unix.S_ISUID != 0 {
		t.Errorf("a root-owned set-uid file cloned by nobody: mode %o, owner %d", st.Mode, st.Uid)
	}

	must(t, unix.Mkfifo(filepath.Join(src, "ro39", "zz-fifo"), 0o644))
	must(t, os.Chmod(filepath.Join(src, "ro39"), 0o555))
	o = cloneAsNobody(t, world, src, filepath.Join(out, "failed"), Copy, FailOnSpecials)
	if o.Err == "" {
		t.Fatal("a clone with a FIFO under FailOnSpecials succeeded")
	}
	if names := dirNames(t, out); len(names) != 1 {
		t.Errorf("a failed clone by nobody left %q (error %s)", names, o.Err)
	}
}
