package browse

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// settle waits until the files made so far are older than a scan begun
// after it, by the deletion's measure: a tick where the file system's
// times are exact, 2 s and more elsewhere.
func settle(t *testing.T, dir string) {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC:
		time.Sleep(20 * time.Millisecond)
	default:
		time.Sleep(2100 * time.Millisecond)
	}
}

// listing is n's entries at every depth, with each file's disk usage and
// each directory's totals.
func listing(n *dutree.Node) []string {
	var out []string
	var walk func(n *dutree.Node, path string)
	walk = func(n *dutree.Node, path string) {
		for _, k := range n.Dir.Entries() {
			if k.Dir != nil {
				out = append(out, fmt.Sprintf("%s/ %d %d", path+k.Name, k.Dir.Dsize, k.Dir.Items))
				walk(&k, path+k.Name+"/")
			} else {
				out = append(out, fmt.Sprintf("%s %d", path+k.Name, k.Dsize))
			}
		}
	}
	walk(n, "")
	out = append(out, fmt.Sprintf(". %d %d", n.Dir.Dsize, n.Dir.Items))
	slices.Sort(out)
	return out
}

// TestDeleteStoppedRescans: an entry made in a/sub once the deletion's
// checks have passed stops it on the way into sub; the message counts
// what went, as the disk does, and says why it stopped; the view is then
// a fresh scan's.
func TestDeleteStoppedRescans(t *testing.T) {
	root := t.TempDir()
	mk := func(p string, size int) {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		mk(fmt.Sprintf("a/f%02d", i), 5000)
	}
	for _, p := range []string{"a/sub/s1", "a/sub/s2", "a/zz/z1", "other"} {
		mk(p, 7000)
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
	dutree.AfterChecks = func() { mk("a/sub/new", 1) }
	t.Cleanup(func() { dutree.AfterChecks = nil })
	press(b, "n") // a other
	press(b, "dy")

	files, dirs := 0, 0
	for i := range 20 {
		if _, err := os.Lstat(filepath.Join(root, fmt.Sprintf("a/f%02d", i))); err != nil {
			files++
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "a", "zz")); err != nil {
		files, dirs = files+1, dirs+1
	}
	msg := string(b.message)
	want := fmt.Sprintf("Stopped deleting a after %s and %s (", plural(int64(files), "file", "files"), plural(int64(dirs), "directory", "directories"))
	if !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "): "+dutree.ErrChanged.Error()+" (at a/sub)") || files == 0 {
		t.Errorf("message %q, want %q...: %v (at a/sub)", msg, want, dutree.ErrChanged)
	}
	fresh, _, err := dutree.Scan(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := listing(b.dir()), listing(new(fresh.Root())); !slices.Equal(got, want) {
		t.Errorf("the view:\n%s\na fresh scan:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
