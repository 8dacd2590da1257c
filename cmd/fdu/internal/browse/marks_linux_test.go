package browse

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pbednarcik/flexreaddir/walk"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// TestRescanDropsMarks: a mark is on the entry marked, not its name; a
// rescan may find another entry under the name (a file replaced by a
// directory full of what was elsewhere, or by another file, its inode
// number reused), so a rescan of a directory drops the marks in it, and d
// deletes nothing the user did not mark. Marks elsewhere stay.
func TestRescanDropsMarks(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"sub/a", "sub/b", "sub/c", "other/d"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), make([]byte, 100), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, root)
	opts := dutree.ScanOptions{Walk: func() *walk.Options { return &walk.Options{Workers: 2} }}
	tr, _, err := dutree.Scan(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newTest(t, 200, 30, Config{Tree: tr, Rescan: func(ctx context.Context, path string, n *dutree.Node, p *dutree.Progress) ([]dutree.Error, error) {
		o := opts
		o.Progress = p
		return dutree.Rescan(ctx, path, n, o)
	}})
	pick := func(name string) {
		t.Helper()
		for i, k := range b.view {
			if b.kids[k].Name == name {
				b.sel = i
				return
			}
		}
		t.Fatalf("%s is not shown", name)
	}
	pick("other")
	b.enter()
	pick("d")
	press(b, " ")
	b.up()
	pick("sub")
	b.enter()
	press(b, "A") // a, b and c
	if b.marks.count != 4 {
		t.Fatalf("%d marked, want 4", b.marks.count)
	}
	// a becomes a directory of another's; b another file.
	os.Remove(filepath.Join(root, "sub", "a"))
	os.MkdirAll(filepath.Join(root, "sub", "a", "in"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "a", "in", "data"), make([]byte, 1<<20), 0o644)
	os.Remove(filepath.Join(root, "sub", "b"))
	os.WriteFile(filepath.Join(root, "sub", "b"), make([]byte, 100), 0o644)
	settle(t, root)
	press(b, "r")
	var marked []string
	for _, it := range b.markedItems() {
		marked = append(marked, it.name)
	}
	if len(marked) != 1 || marked[0] != "d" || b.marks.count != 1 {
		t.Errorf("marked after the rescan: %q (count %d), want only other/d", marked, b.marks.count)
	}
}
