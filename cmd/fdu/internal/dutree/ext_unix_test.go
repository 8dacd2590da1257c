//go:build unix

package dutree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/walk"
)

// extTree is makeTree with owners and modes that differ from entry to
// entry (owners only as root).
func extTree(t *testing.T) string {
	t.Helper()
	root := makeTree(t)
	for name, mode := range map[string]os.FileMode{"a/f": 0o600, "a/b": 0o700, "x": 0o751} {
		if err := os.Chmod(filepath.Join(root, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		for name, id := range map[string]int{"a/f": 65534, "x/y": 4242, "a/b": 123} {
			if err := os.Lchown(filepath.Join(root, name), id, id+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// exts lists each entry's path below the root with its Ext and Mtime.
func exts(tr *Tree) []string {
	var out []string
	var walk func(n *Node, path string)
	walk = func(n *Node, path string) {
		out = append(out, fmt.Sprintf("%q uid=%d gid=%d mode=%o mtime=%d", path, n.Ext.Uid, n.Ext.Gid, n.Ext.Mode, n.Mtime))
		if n.Dir != nil {
			for _, k := range n.Dir.Entries() {
				walk(&k, path+"/"+k.Name)
			}
		}
	}
	root := tr.Root()
	walk(&root, "")
	slices.Sort(out)
	return out
}

// extOnDisk is exts as lstat tells them, for each path exts lists.
func extOnDisk(t *testing.T, root string, listed []string) []string {
	t.Helper()
	var out []string
	for _, l := range listed {
		var path string
		fmt.Sscanf(l, "%q", &path)
		fi, err := os.Lstat(root + path)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		out = append(out, fmt.Sprintf("%q uid=%d gid=%d mode=%o mtime=%d", path, st.Uid, st.Gid, st.Mode, fi.ModTime().Unix()))
	}
	slices.Sort(out)
	return out
}

func TestScanExtended(t *testing.T) {
	root := extTree(t)
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	got := exts(tr)
	if want := extOnDisk(t, root, got); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scanned\n%s\non disk\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !tr.Extended {
		t.Error("the tree is not marked Extended")
	}
	// Written and read back, with and without extended mode.
	var buf bytes.Buffer
	if err := Write(&buf, tr, WriteOptions{Extended: true}); err != nil {
		t.Fatal(err)
	}
	back, _, err := ReadWith(bytes.NewReader(buf.Bytes()), ReadOptions{Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	if b := exts(back); strings.Join(b, "\n") != strings.Join(got, "\n") {
		t.Errorf("read back\n%s\nwrote\n%s", strings.Join(b, "\n"), strings.Join(got, "\n"))
	}
	plain, _, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range exts(plain) {
		if !strings.Contains(l, "uid=0 gid=0 mode=0 ") {
			t.Errorf("read without extended mode, yet kept: %s", l)
		}
	}
	// Without -e, a scan keeps none.
	tr, _, err = Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Top.ext != nil {
		t.Error("a scan without extended mode keeps Ext")
	}
}

// TestNcduExtended: ncdu -e's export, read with extended mode, has what
// the disk has; fdu's, read by ncdu -e and written again, keeps it.
func TestNcduExtended(t *testing.T) {
	ncdu := tool(t, "ncdu")
	root := extTree(t)
	theirs := run(t, ncdu, "--ignore-config", "-e", "-o", "-", root)
	tr, _, err := ReadWith(bytes.NewReader(theirs), ReadOptions{Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	got := exts(tr)
	if want := extOnDisk(t, root, got); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ncdu -e -o read as\n%s\non disk\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ours, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "fdu.json")
	var buf bytes.Buffer
	if err := Write(&buf, ours, WriteOptions{Extended: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	again := run(t, ncdu, "--ignore-config", "-e", "-f", file, "-o", "-")
	back, _, err := ReadWith(bytes.NewReader(again), ReadOptions{Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	if b := exts(back); strings.Join(b, "\n") != strings.Join(got, "\n") {
		t.Errorf("ncdu -e -f of ours wrote\n%s\nncdu's own scan\n%s", strings.Join(b, "\n"), strings.Join(got, "\n"))
	}
}

// TestScanExtendedFollowsLinks: under -L a symbolic link is shown as its
// target, owner and mode too.
func TestScanExtendedFollowsLinks(t *testing.T) {
	root := t.TempDir()
	mkfile(t, filepath.Join(root, "target"), 10)
	if err := os.Chmod(filepath.Join(root, "target"), 0o640); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(filepath.Join(root, "target"), 4242, 4243); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("target", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	follow := func() *walk.Options { return &walk.Options{Workers: 1, FollowSymlinks: true} }
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: follow, Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(root, "target"))
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	want := Ext{Uid: st.Uid, Gid: st.Gid, Mode: uint32(st.Mode)}
	if n := tr.Find([]string{"link"}); n == nil || n.Ext != want {
		t.Errorf("link: %+v, want its target's %+v", n, want)
	}
}
