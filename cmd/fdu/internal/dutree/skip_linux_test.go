package dutree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// kids maps each entry of the tree's root to its flags, and whether it
// has a listing (a Dir).
func kids(t *testing.T, tr *Tree) map[string]Flags {
	t.Helper()
	out := map[string]Flags{}
	for _, k := range tr.Top.Entries() {
		f := k.Flags &^ wasDir
		if k.Dir != nil {
			f |= entDir // "listed", for the comparison
		}
		out[k.Name] = f
	}
	return out
}

func TestExcludeCaches(t *testing.T) {
	root := t.TempDir()
	tag := cacheDirSignature + "\n# This file is a cache directory tag.\n"
	files := map[string]string{
		"cache/CACHEDIR.TAG":    tag,
		"cache/big":             string(make([]byte, 100000)),
		"exact/CACHEDIR.TAG":    cacheDirSignature, // the signature alone is enough
		"wrong/CACHEDIR.TAG":    "Signature: 8a477f597d28d172789f06886806bc5X\n",
		"short/CACHEDIR.TAG":    cacheDirSignature[:42],
		"lower/cachedir.tag":    tag,
		"linked/real":           tag,
		"plain/file":            "x",
		"nested/a/CACHEDIR.TAG": tag,
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A tag that is a link to a good tag tags nothing: it is not read.
	if err := os.Symlink("real", filepath.Join(root, "linked/CACHEDIR.TAG")); err != nil {
		t.Fatal(err)
	}
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), ExcludeCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	got := kids(t, tr)
	for name, want := range map[string]Flags{
		"cache": Excluded, "exact": Excluded, "wrong": entDir, "short": entDir, "lower": entDir,
		"linked": entDir, "plain": entDir, "nested": entDir,
	} {
		if got[name] != want {
			t.Errorf("%s: flags %#x, want %#x", name, got[name], want)
		}
	}
	nested := tr.Top.Entries()
	for _, k := range nested {
		if k.Name == "nested" {
			if a := k.Dir.Entries(); len(a) != 1 || a[0].Flags&Excluded == 0 {
				t.Errorf("nested/a not excluded: %+v", a)
			}
		}
	}
	if tr.Top.Dsize >= 100000 {
		t.Errorf("the excluded cache's file is counted: %d bytes", tr.Top.Dsize)
	}
	// Without the option, every directory is scanned.
	tr, _, err = Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range kids(t, tr) {
		if f != entDir {
			t.Errorf("without --exclude-caches, %s: flags %#x", name, f)
		}
	}
}

// TestExcludeKernFS mounts a proc and a tmpfs in the tree: the proc is
// left out, marked, the tmpfs scanned.
func TestExcludeKernFS(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a proc needs root")
	}
	root := t.TempDir()
	for _, d := range []string{"proc", "tmp", "plain"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	proc := filepath.Join(root, "proc")
	if out, err := exec.Command("mount", "-t", "proc", "proc", proc).CombinedOutput(); err != nil {
		t.Skipf("skipping: mount -t proc: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", proc).Run() })
	testfs.MountTmpfs(t, filepath.Join(root, "tmp"))
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2), ExcludeKernFS: true})
	if err != nil {
		t.Fatal(err)
	}
	got := kids(t, tr)
	for name, want := range map[string]Flags{"proc": KernFS, "tmp": entDir, "plain": entDir} {
		if got[name] != want {
			t.Errorf("%s: flags %#x, want %#x", name, got[name], want)
		}
	}
}
