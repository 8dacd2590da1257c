package tree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// Another user who owns the directory holding a clone's source or a
// permission walk's directory exchanges names there (renameat2 with
// RENAME_EXCHANGE, in a loop, as nobody) while root runs: whatever the
// timing, nothing of root's may become theirs to read, and nothing outside
// the tree named may change.

const nobody = 65534

// attackerHome makes, in a world-searchable directory, home/ owned by
// nobody holding src/ (nobody's, with a file "mine") and private/ beside
// home, root's and 0700, holding a 0644 file "secret".
func attackerHome(t *testing.T) (world, home, private string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to race a root user's run as nobody")
	}
	world = testfs.WorldDir(t)
	home = filepath.Join(world, "home")
	must(t, os.Mkdir(home, 0o755))
	src := filepath.Join(home, "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "mine"), []byte("nobody's"), 0o644))
	private = filepath.Join(world, "private")
	must(t, os.Mkdir(private, 0o700))
	must(t, os.WriteFile(filepath.Join(private, "secret"), []byte("root's"), 0o644))
	for _, p := range []string{home, src, filepath.Join(src, "mine")} {
		must(t, os.Lchown(p, nobody, nobody))
	}
	return world, home, private
}

// leaks reports the first directory in the clone at dst that holds root's
// secret and that nobody could read: not owned by root, or open to others.
func leaks(t *testing.T, dst string) string {
	t.Helper()
	var found string
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != "" || d.Name() != "secret" {
			return nil
		}
		st, err := os.Lstat(filepath.Dir(p))
		if err != nil {
			return nil
		}
		sys := st.Sys().(*syscall.Stat_t)
		if sys.Uid != 0 || st.Mode().Perm()&0o077 != 0 {
			found = fmt.Sprintf("%s (directory owner %d, mode %v)", p, sys.Uid, st.Mode().Perm())
		}
		return nil
	})
	return found
}

// TestCloneSourceSwappedForLink: src and a link to root's private
// directory change places while root clones src. The link must never be
// followed: each clone is src, or a link, or refused.
func TestCloneSourceSwappedForLink(t *testing.T) {
	world, home, private := attackerHome(t)
	lnk := filepath.Join(home, "lnk")
	must(t, os.Symlink(private, lnk))
	must(t, os.Lchown(lnk, nobody, nobody))
	testfs.SwapAsNobody(t, world, filepath.Join(home, "src"), lnk)
	out := t.TempDir()
	var cloned, links, refused int
	for i := range 300 {
		dst := filepath.Join(out, fmt.Sprint(i))
		_, err := Clone(filepath.Join(home, "src"), dst, &Options{Method: Copy, Workers: 1})
		if err != nil {
			// Refused as a link, or found changed between its stat and
			// its open or readlink: nothing was made.
			if _, serr := os.Lstat(dst); serr == nil {
				t.Fatalf("clone %d failed (%v) and left %s", i, err, dst)
			}
			refused++
			continue
		}
		st, err := os.Lstat(dst)
		must(t, err)
		if st.Mode()&fs.ModeSymlink != 0 {
			links++
			continue
		}
		if _, err := os.Stat(filepath.Join(dst, "secret")); err == nil {
			t.Fatalf("clone %d followed the link swapped in for its source: %s holds root's secret", i, dst)
		}
		if _, err := os.Stat(filepath.Join(dst, "mine")); err != nil {
			t.Fatalf("clone %d: a directory without src's file: %v", i, err)
		}
		cloned++
	}
	t.Logf("%d clones of src, %d of the link, %d refused", cloned, links, refused)
	if cloned == 0 {
		t.Error("no clone of src succeeded while the names were swapped")
	}
}

// TestCloneSourceSwappedForDirectory: src and root's private directory
// change places while root clones src (nobody may rename in a directory of
// theirs what they cannot read). Whichever is cloned keeps its own owner
// and mode: root's secret never lands in a directory nobody can read.
func TestCloneSourceSwappedForDirectory(t *testing.T) {
	world, home, private := attackerHome(t)
	moved := filepath.Join(home, "private")
	must(t, os.Rename(private, moved))
	testfs.SwapAsNobody(t, world, filepath.Join(home, "src"), moved)
	out := t.TempDir()
	for i := range 300 {
		dst := filepath.Join(out, fmt.Sprint(i))
		if _, err := Clone(filepath.Join(home, "src"), dst, &Options{Method: Copy, Workers: 1}); err != nil {
			t.Fatalf("clone %d: %v", i, err)
		}
		if leak := leaks(t, dst); leak != "" {
			t.Fatalf("clone %d: root's secret readable by nobody at %s", i, leak)
		}
	}
}

// TestCloneSubdirSwappedForDirectory: the same exchange one level down,
// between two subdirectories of the source, which the clone stats in the
// parent's visit and opens in its own.
func TestCloneSubdirSwappedForDirectory(t *testing.T) {
	world, home, private := attackerHome(t)
	src := filepath.Join(home, "src")
	sub := filepath.Join(src, "sub")
	must(t, os.Mkdir(sub, 0o755))
	must(t, os.WriteFile(filepath.Join(sub, "mine"), nil, 0o644))
	for _, p := range []string{sub, filepath.Join(sub, "mine")} {
		must(t, os.Lchown(p, nobody, nobody))
	}
	moved := filepath.Join(src, "private")
	must(t, os.Rename(private, moved))
	testfs.SwapAsNobody(t, world, sub, moved)
	out := t.TempDir()
	for i := range 300 {
		dst := filepath.Join(out, fmt.Sprint(i))
		if _, err := Clone(src, dst, &Options{Method: Copy, Workers: 2}); err != nil {
			t.Fatalf("clone %d: %v", i, err)
		}
		if leak := leaks(t, dst); leak != "" {
			t.Fatalf("clone %d: root's secret readable by nobody at %s", i, leak)
		}
	}
}

// TestChmodDirSwappedForLink: the directory a permission walk is given and
// a link to root's private directory change places while root runs it:
// root's files and directories never change.
func TestChmodDirSwappedForLink(t *testing.T) {
	world, home, private := attackerHome(t)
	secret := filepath.Join(private, "secret")
	must(t, os.Chmod(secret, 0o666))
	must(t, os.Chmod(private, 0o500))
	lnk := filepath.Join(home, "lnk")
	must(t, os.Symlink(private, lnk))
	must(t, os.Lchown(lnk, nobody, nobody))
	testfs.SwapAsNobody(t, world, filepath.Join(home, "src"), lnk)
	dir := filepath.Join(home, "src")
	for i := range 300 {
		// Refused as a link, or swapped between the stat and the open.
		refused := func(err error) bool { return errors.Is(err, ErrSymlink) || errors.Is(err, syscall.ENOTDIR) }
		if _, err := FilesReadOnly(dir, 1); err != nil && !refused(err) {
			t.Fatalf("FilesReadOnly %d: %v", i, err)
		}
		if _, err := DirsWritable(dir, 1); err != nil && !refused(err) {
			t.Fatalf("DirsWritable %d: %v", i, err)
		}
		for p, want := range map[string]fs.FileMode{secret: 0o666, private: 0o500} {
			st, err := os.Lstat(p)
			must(t, err)
			if st.Mode().Perm() != want {
				t.Fatalf("run %d: %s changed through the link: mode %v, want %v", i, p, st.Mode().Perm(), want)
			}
		}
	}
}

// TestChmodRefusesLinkedDir: a symbolic link given as the directory is
// refused, and what it leads to is left alone.
func TestChmodRefusesLinkedDir(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "target")
	must(t, os.Mkdir(target, 0o755))
	f := filepath.Join(target, "f")
	must(t, os.WriteFile(f, nil, 0o666))
	must(t, os.Chmod(f, 0o666))
	must(t, os.Chmod(target, 0o555))
	lnk := filepath.Join(base, "lnk")
	must(t, os.Symlink("target", lnk))
	for name, run := range map[string]func(string, int) (int, error){"FilesReadOnly": FilesReadOnly, "DirsWritable": DirsWritable} {
		for _, arg := range []string{lnk, lnk + "/"} {
			n, err := run(arg, 0)
			if !errors.Is(err, ErrSymlink) || n != 0 {
				t.Errorf("%s(%q): %d changed, %v; want ErrSymlink", name, arg, n, err)
			}
		}
	}
	for p, want := range map[string]fs.FileMode{f: 0o666, target: 0o555} {
		st, err := os.Lstat(p)
		must(t, err)
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}

// TestCloneWorkDirReplaced: another user who can write to the
// destination's parent moves the clone's work directory away, puts a
// directory of root's that they cannot remove under its name and makes
// the destination, so the final rename fails. Nothing of root's is
// removed, and the error says where the finished clone is left.
func TestCloneWorkDirReplaced(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	srcTree(t, src)
	for _, fail := range []bool{false, true} {
		t.Run(fmt.Sprintf("build fails %v", fail), func(t *testing.T) {
			parent := filepath.Join(t.TempDir(), "nb")
			must(t, os.Mkdir(parent, 0o777))
			rootdata := filepath.Join(parent, "rootdata")
			must(t, os.MkdirAll(filepath.Join(rootdata, "keep"), 0o755))
			must(t, os.WriteFile(filepath.Join(rootdata, "keep", "f"), []byte("root's"), 0o600))
			dst := filepath.Join(parent, "backup")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			attacked := false
			testHookDir = func(d *walk.Dir) {
				if attacked {
					return
				}
				attacked = true
				des, err := os.ReadDir(parent)
				must(t, err)
				for _, de := range des {
					if strings.HasPrefix(de.Name(), TempPrefix) {
						must(t, os.Rename(filepath.Join(parent, de.Name()), filepath.Join(parent, "away")))
						must(t, os.Rename(rootdata, filepath.Join(parent, de.Name())))
					}
				}
				must(t, os.Mkdir(dst, 0o755))
				if fail {
					cancel() // the clone ends early: it undoes what it made
				}
			}
			defer func() { testHookDir = nil }()
			_, err := CloneContext(ctx, src, dst, &Options{Method: Copy, Workers: 1})
			if err == nil {
				t.Fatal("the clone succeeded with its destination made meanwhile")
			}
			if !attacked {
				t.Fatal("the hook never ran")
			}
			t.Log(err)
			var kept int
			filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Name() == "f" && strings.Contains(p, "keep") {
					if b, _ := os.ReadFile(p); string(b) == "root's" {
						kept++
					}
				}
				return nil
			})
			if kept != 1 {
				t.Errorf("root's directory put under the work directory's name was removed: %v", err)
			}
			if !fail && !strings.Contains(err.Error(), "finished clone is left") {
				t.Errorf("the error does not say where the finished clone is: %v", err)
			}
		})
	}
}

// TestSealFileExchangedForRootsFile: in a directory of the tree that
// another user may write, their set-id, world-writable file and root's
// files change places while root seals the tree's files. Root's files may
// lose write bits, and never gain a bit: the mode written is the mode of
// the file it is written to.
func TestSealFileExchangedForRootsFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to race a root user's run as nobody")
	}
	world := testfs.WorldDir(t)
	out := filepath.Join(world, "tree", "out")
	must(t, os.MkdirAll(out, 0o755))
	must(t, os.Chown(out, nobody, nobody))
	tool, key := filepath.Join(out, "tool"), filepath.Join(out, "key")
	must(t, os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Chmod(tool, 0o755))
	must(t, os.WriteFile(key, []byte("root's"), 0o600))
	for mine, roots := range map[string]string{"mine1": tool, "mine2": key} {
		mine = filepath.Join(out, mine)
		must(t, os.WriteFile(mine, nil, 0o644))
		must(t, os.Chown(mine, nobody, nobody))
		must(t, os.Chmod(mine, 0o6777))
		testfs.SwapAsNobody(t, world, mine, roots)
	}
	for i := range 1000 {
		if _, err := FilesReadOnly(filepath.Join(world, "tree"), 1); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		des, err := os.ReadDir(out)
		must(t, err)
		for _, de := range des {
			fi, err := os.Lstat(filepath.Join(out, de.Name()))
			if err != nil {
				continue
			}
			st := fi.Sys().(*syscall.Stat_t)
			if st.Uid == 0 && (fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 || fi.Mode().Perm()&^0o755 != 0) {
				t.Fatalf("run %d: root's %s was given mode %v", i, de.Name(), fi.Mode())
			}
		}
		// The other user makes theirs writable again for the next run
		// (through the file's own descriptor: the names keep moving).
		for _, de := range des {
			if f, err := os.OpenFile(filepath.Join(out, de.Name()), os.O_RDONLY|syscall.O_NOFOLLOW, 0); err == nil {
				if fi, err := f.Stat(); err == nil && fi.Sys().(*syscall.Stat_t).Uid == nobody {
					f.Chmod(0o777 | fs.ModeSetuid | fs.ModeSetgid)
				}
				f.Close()
			}
		}
	}
}

// TestCloneIgnoresDestinationDefaultACL: the destination's parent, another
// user's, has a default ACL giving them access to whatever is made in it.
// Neither the clone's work directory nor anything of the clone inherits
// it: root's 0640 file stays root's and its group's alone.
func TestCloneIgnoresDestinationDefaultACL(t *testing.T) {
	setfacl, err := exec.LookPath("setfacl")
	if err != nil {
		t.Skip("skipping: no setfacl (apt-get install acl)")
	}
	src := filepath.Join(t.TempDir(), "secret")
	must(t, os.Mkdir(src, 0o710))
	must(t, os.WriteFile(filepath.Join(src, "key"), []byte("root's"), 0o640))
	home := filepath.Join(t.TempDir(), "home")
	must(t, os.Mkdir(home, 0o755))
	if out, err := exec.Command(setfacl, "-d", "-m", "u:65534:rwx", home).CombinedOutput(); err != nil {
		t.Skipf("skipping: setfacl -d on %s: %v: %s", home, err, out)
	}
	var during []string
	testHookDir = func(d *walk.Dir) {
		des, _ := os.ReadDir(home)
		for _, de := range des {
			if strings.HasPrefix(de.Name(), TempPrefix) {
				during = append(during, aclsOf(t, filepath.Join(home, de.Name()))...)
			}
		}
	}
	defer func() { testHookDir = nil }()
	dst := filepath.Join(home, "copy")
	if _, err := Clone(src, dst, &Options{Method: Copy, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if len(during) > 0 {
		t.Errorf("the work directory had ACLs: %v", during)
	}
	for _, p := range []string{dst, filepath.Join(dst, "key")} {
		if acls := aclsOf(t, p); len(acls) > 0 {
			t.Errorf("%s inherited the destination's ACLs: %v", p, acls)
		}
	}
}

// aclsOf lists the POSIX ACLs p has.
func aclsOf(t *testing.T, p string) []string {
	t.Helper()
	var have []string
	for _, name := range []string{"system.posix_acl_access", "system.posix_acl_default"} {
		if _, err := unix.Lgetxattr(p, name, nil); err == nil {
			have = append(have, name)
		}
	}
	return have
}

// TestCloneOfFileGrownSparse: an empty source file made a huge sparse one
// between its stat and its copy (ftruncate, by the user who owns it) is
// copied with its holes, not written out whole on the destination.
func TestCloneOfFileGrownSparse(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), nil, 0o644))
	const grown = 1 << 30
	testHookOpened = func(int) {
		if f, err := os.OpenFile(filepath.Join(src, "f"), os.O_WRONLY, 0); err == nil {
			f.WriteAt([]byte("x"), 0)
			f.Truncate(grown)
			f.Close()
		}
	}
	defer func() { testHookOpened = nil }()
	dst := filepath.Join(t.TempDir(), "dst")
	if _, err := Clone(src, dst, &Options{Method: Copy, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	must(t, unix.Stat(filepath.Join(dst, "f"), &st))
	if st.Blocks*512 > 1<<20 {
		t.Errorf("the copy of a sparse %d-byte file holds %d bytes on disk", st.Size, st.Blocks*512)
	}
}

// TestWorkDirSwappedBeforeOpen: between the mkdir of the clone's work
// directory and its open, another user who may write the destination's
// parent puts a shared directory of root's (1777, with an ACL) under its
// name. The clone refuses it and leaves it exactly as it was.
func TestWorkDirSwappedBeforeOpen(t *testing.T) {
	setfacl, err := exec.LookPath("setfacl")
	if err != nil {
		t.Skip("skipping: no setfacl (apt-get install acl)")
	}
	src := filepath.Join(t.TempDir(), "src")
	srcTree(t, src)
	parent := filepath.Join(t.TempDir(), "nb")
	must(t, os.Mkdir(parent, 0o777))
	pub := filepath.Join(parent, "pub")
	must(t, os.Mkdir(pub, 0o755))
	must(t, os.Chmod(pub, 0o777|os.ModeSticky))
	if out, err := exec.Command(setfacl, "-m", "u:65534:rwx", pub).CombinedOutput(); err != nil {
		t.Skipf("skipping: setfacl: %v: %s", err, out)
	}
	testHookWorkMade = func(path string) {
		must(t, os.Rename(path, filepath.Join(parent, "away")))
		must(t, os.Rename(pub, path))
		pub = path
	}
	defer func() { testHookWorkMade = nil }()
	if _, err := Clone(src, filepath.Join(parent, "backup"), &Options{Method: Copy}); err == nil {
		t.Fatal("a clone into a directory swapped in for its work directory succeeded")
	}
	st, err := os.Stat(pub)
	must(t, err)
	if st.Mode()&(os.ModePerm|os.ModeSticky) != 0o777|os.ModeSticky {
		t.Errorf("root's shared directory is now %v", st.Mode())
	}
	if len(aclsOf(t, pub)) == 0 {
		t.Error("root's shared directory lost its ACL")
	}
}

// TestCloneIntoSetGIDDirectoryKeepsGroups: the destination's parent is a
// set-group-ID directory of group G, and the source's files and
// directories are root's and G's, one set-group-ID. The clone keeps G on
// each, as cp -a does, and never makes a set-group-ID file of another
// group than its source's (root's group, say).
func TestCloneIntoSetGIDDirectoryKeepsGroups(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to give files another group")
	}
	const g = 65534
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.MkdirAll(filepath.Join(src, "d"), 0o755))
	f := filepath.Join(src, "d", "tool")
	must(t, os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755))
	for _, p := range []string{src, filepath.Join(src, "d"), f} {
		must(t, os.Chown(p, 0, g))
	}
	must(t, os.Chmod(f, 0o755|os.ModeSetgid))
	parent := filepath.Join(t.TempDir(), "shared")
	must(t, os.Mkdir(parent, 0o775))
	must(t, os.Chown(parent, 0, g))
	must(t, os.Chmod(parent, 0o775|os.ModeSetgid))
	for _, m := range []Method{Copy, Auto} {
		dst := filepath.Join(parent, string(m))
		if _, err := Clone(src, dst, &Options{Method: m}); err != nil {
			t.Fatal(err)
		}
		for _, rel := range []string{".", "d", "d/tool"} {
			fi, err := os.Lstat(filepath.Join(dst, rel))
			must(t, err)
			if gid := fi.Sys().(*syscall.Stat_t).Gid; gid != g {
				t.Errorf("%s %s: group %d, want %d (mode %v)", m, rel, gid, g, fi.Mode())
			}
		}
	}
}

// TestCloneTakesModeAfterData: a set-user-ID file written to while it is
// copied loses the bit (the kernel clears it on a write by another than
// root): the copy, which may hold that write, must not keep the bit
// either. The hook changes the mode as such a write does.
func TestCloneTakesModeAfterData(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	f := filepath.Join(src, "tool")
	must(t, os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Chmod(f, 0o755|os.ModeSetuid))
	testHookOpened = func(int) {
		must(t, os.WriteFile(f, []byte("#!/bin/sh\nid\n"), 0o755))
		must(t, os.Chmod(f, 0o755))
	}
	defer func() { testHookOpened = nil }()
	dst := filepath.Join(t.TempDir(), "dst")
	if _, err := Clone(src, dst, &Options{Method: Copy, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(filepath.Join(dst, "tool"))
	must(t, err)
	if fi.Mode()&os.ModeSetuid != 0 {
		t.Errorf("the copy of a file written during the copy kept its set-user-ID bit: %v", fi.Mode())
	}
}

// linkHelperEnv, set to "from\x1fto", makes the test binary, run as
// nobody, hard-link from at to.
const linkHelperEnv = "TREE_LINK_HELPER"

// TestSealLeavesOthersLinkedFile: nobody hard-links into their tree a
// file of root's they may write (fs.protected_hardlinks allows a link to
// a file its maker can read and write), and root seals the tree: root's
// file keeps its mode, and the error says why; nobody's own linked file
// is sealed.
func TestSealLeavesOthersLinkedFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to race a root user's run as nobody")
	}
	world := testfs.WorldDir(t)
	home := filepath.Join(world, "home")
	pub := filepath.Join(world, "pub")
	must(t, os.Mkdir(home, 0o755))
	must(t, os.Chown(home, nobody, nobody))
	must(t, os.Mkdir(pub, 0o755))
	shared := filepath.Join(pub, "shared")
	must(t, os.WriteFile(shared, []byte("root's"), 0o666))
	must(t, os.Chmod(shared, 0o666))
	mine := filepath.Join(home, "mine")
	must(t, os.WriteFile(mine, nil, 0o644))
	must(t, os.Chown(mine, nobody, nobody))
	testfs.RunAsNobody(t, world, linkHelperEnv+"="+shared+"\x1f"+filepath.Join(home, "linked"))
	testfs.RunAsNobody(t, world, linkHelperEnv+"="+mine+"\x1f"+filepath.Join(home, "mine2"))
	n, err := FilesReadOnly(home, 1)
	if !errors.Is(err, ErrLinkedIn) {
		t.Errorf("FilesReadOnly: %d changed, %v; want ErrLinkedIn", n, err)
	}
	for p, want := range map[string]fs.FileMode{shared: 0o666, mine: 0o444} {
		st, err := os.Lstat(p)
		must(t, err)
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}

// TestChainRenamedDuringWalks: nobody exchanges directories at several
// depths of a chain in their tree, in a loop, while root seals it, opens
// its directories and clones it, keeping two descriptors a side so that
// directories are found again through ".." and by names. Whatever each
// run reports, nothing of root's beside the tree changes, no clone holds
// root's secret where nobody may read it, and no descriptor is left open.
// -short does 10 rounds rather than 25: fewer races met.
func TestChainRenamedDuringWalks(t *testing.T) {
	world, home, private := attackerHome(t)
	secret := filepath.Join(private, "secret")
	must(t, os.Chmod(secret, 0o666))
	must(t, os.Chmod(private, 0o500))
	tree := filepath.Join(home, "tree")
	// A chain 24 deep, a leaf directory and a file at each level; at
	// levels 3, 11 and 19 a copy of the rest of it beside it, "other",
	// which nobody exchanges with it: each path stays a path, leading now
	// into one, now into the other.
	const depth = 24
	var build func(dir string, level int)
	build = func(dir string, level int) {
		if level == depth {
			return
		}
		names := []string{"c"}
		if level%8 == 3 {
			names = append(names, "other")
		}
		for _, name := range names {
			c := filepath.Join(dir, name)
			must(t, os.MkdirAll(filepath.Join(c, "leaf"), 0o755))
			must(t, os.WriteFile(filepath.Join(c, "f"), []byte("nobody's"), 0o644))
			build(c, level+1)
		}
	}
	build(tree, 0)
	var swaps [][2]string
	for level := 3; level < depth; level += 8 {
		dir := tree + strings.Repeat("/c", level)
		swaps = append(swaps, [2]string{filepath.Join(dir, "c"), filepath.Join(dir, "other")})
	}
	// A directory of root's inside the tree, which nobody may rename but
	// not move: cloned, it stays root's alone.
	rootsIn := filepath.Join(tree, "c", "roots")
	must(t, os.Mkdir(rootsIn, 0o700))
	must(t, os.WriteFile(filepath.Join(rootsIn, "secret"), []byte("root's"), 0o644))
	must(t, filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !strings.HasPrefix(p, rootsIn) {
			err = os.Lchown(p, nobody, nobody)
		}
		return err
	}))
	for _, s := range swaps {
		testfs.SwapAsNobody(t, world, s[0], s[1])
	}
	before := testfs.OpenFiles(t)
	out := t.TempDir()
	failed := 0
	rounds := 25
	if testing.Short() {
		rounds = 10
	}
	for i := range rounds {
		_, err1 := FilesReadOnly(tree, 2)
		_, err2 := DirsWritable(tree, 2)
		if err1 != nil || err2 != nil {
			failed++
		}
		for _, m := range []Method{Copy, Hardlink} {
			dst := filepath.Join(out, fmt.Sprint(m, i))
			_, err := Clone(tree, dst, &Options{Method: m, Workers: 2, MaxOpenDirs: 2})
			if err != nil {
				failed++
				continue
			}
			if leak := leaks(t, dst); leak != "" {
				t.Fatalf("clone %d: root's secret readable by nobody at %s", i, leak)
			}
		}
		for p, want := range map[string]fs.FileMode{secret: 0o666, private: 0o500} {
			st, err := os.Lstat(p)
			must(t, err)
			if st.Mode().Perm() != want {
				t.Fatalf("run %d: %s, beside the tree, changed: mode %v, want %v", i, p, st.Mode().Perm(), want)
			}
		}
	}
	t.Logf("%d of %d runs met a directory moved", failed, 3*rounds)
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open after the runs, %d before", after, before)
	}
}
