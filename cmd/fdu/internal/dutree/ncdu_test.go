//go:build unix

package dutree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testMeta is the header of the exports tests write.
var testMeta = WriteOptions{Meta: Meta{Progname: "fdu", Progver: "test", Timestamp: 1}, Mtime: true}

func TestRoundTrip(t *testing.T) {
	tr, _, err := Scan(context.Background(), makeTree(t), ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	first := tr.Top.Entries()[0]
	first.SetFlags(first.Flags | ReadError) // a mark the scan as root cannot make
	tr.Recount()
	for _, mtime := range []bool{true, false} { // false last: it clears tr's times
		data := export(t, tr, mtime)
		back, meta, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if meta.Progname != "fdu" || meta.Progver != "test" || meta.Timestamp != 1 {
			t.Errorf("metadata %+v", meta)
		}
		if !mtime {
			zeroMtimes(tr.Top)
		}
		if got, want := strings.Join(flatten(back, mtime), "\n"), strings.Join(flatten(tr, mtime), "\n"); got != want {
			t.Errorf("mtime %v: read back\n%s\nwrote\n%s", mtime, got, want)
		}
		if again := export(t, back, mtime); !bytes.Equal(again, data) {
			t.Errorf("exported again, not the same bytes:\n%s\n%s", again, data)
		}
	}
}

// tool is the path of the installed program name, or skips the test.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (apt-get install %s); .ci/run installs it", name, name)
	}
	return p
}

// scanAndExport scans a new makeTree and writes its export to a file.
func scanAndExport(t *testing.T, mtime bool) (root string, tr *Tree, file string) {
	t.Helper()
	root = makeTree(t)
	tr, _, err := Scan(context.Background(), root, ScanOptions{Walk: walkWorkers(2)})
	if err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(t.TempDir(), "fdu.json")
	if err := os.WriteFile(file, export(t, tr, mtime), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, tr, file
}

// TestNcduReadsOurs has ncdu read fdu's export and write it out again: what
// it writes must be what it writes of its own scan of the same tree.
func TestNcduReadsOurs(t *testing.T) {
	ncdu := tool(t, "ncdu")
	root, tr, file := scanAndExport(t, false)
	viaNcdu := run(t, ncdu, "--ignore-config", "-f", file, "-o", "-")
	own := run(t, ncdu, "--ignore-config", "-o", "-", root)
	a, _, err := Read(bytes.NewReader(viaNcdu))
	if err != nil {
		t.Fatalf("ncdu's export of our file: %v", err)
	}
	b, _, err := Read(bytes.NewReader(own))
	if err != nil {
		t.Fatalf("ncdu's export of its scan: %v", err)
	}
	if got, want := strings.Join(flatten(a, false), "\n"), strings.Join(flatten(b, false), "\n"); got != want {
		t.Errorf("ncdu read our export as\n%s\nand scanned the tree as\n%s", got, want)
	}
	// And fdu reads ncdu's own scan as it scans: the same tree, but for
	// the symbolic links, which the format marks only as notreg.
	clearFlag(tr.Top, Symlink)
	if got, want := strings.Join(flatten(b, false), "\n"), strings.Join(flatten(tr, false), "\n"); got != want {
		t.Errorf("ncdu -o read as\n%s\nfdu scanned\n%s", got, want)
	}
}

// TestGduReadsOurs has gdu read fdu's export: its totals must be those of
// its own scan of the tree; and fdu reads gdu's export.
func TestGduReadsOurs(t *testing.T) {
	gdu := tool(t, "gdu")
	root, tr, file := scanAndExport(t, true)
	// gdu's totals: per directory they differ with the link it counts
	// a hard-linked file at, which follows its scan's order.
	for _, a := range [][]string{nil, {"-a"}} {
		args := append([]string{"-n", "-p", "-s", "--no-prefix", "--config-file", "/dev/null"}, a...)
		got := run(t, gdu, append(args, "-f", file)...)
		want := run(t, gdu, append(args, root)...)
		if g, w := strings.Fields(string(got)), strings.Fields(string(want)); len(g) == 0 || len(w) == 0 || g[0] != w[0] {
			t.Errorf("gdu %v read our export as\n%s\nand scanned the tree as\n%s", a, got, want)
		}
	}
	out := run(t, gdu, "-n", "--config-file", "/dev/null", "-o", "-", root)
	g, _, err := Read(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("gdu's export: %v", err)
	}
	// gdu writes no directory's own size, no FIFO as notreg, no nlink, and
	// a name that is not UTF-8 with U+FFFD: compare the files' names and
	// sizes.
	if got, want := strings.Join(files(g), "\n"), strings.Join(files(tr), "\n"); got != want {
		t.Errorf("gdu -o read as\n%s\nfdu scanned\n%s", got, want)
	}
}

func files(t *Tree) []string {
	var out []string
	var walk func(n *Node, path string)
	walk = func(n *Node, path string) {
		if n.Dir == nil {
			out = append(out, fmt.Sprintf("%q a=%d d=%d", strings.ToValidUTF8(path, "\uFFFD"), n.Asize, n.Dsize))
			return
		}
		for _, k := range n.Dir.Entries() {
			walk(&k, path+"/"+k.Name)
		}
	}
	root := t.Root()
	walk(&root, "")
	slices.Sort(out)
	return out
}

func clearFlag(d *Dir, f Flags) {
	d.own.flags &^= f
	for _, k := range d.Entries() {
		k.SetFlags(k.Flags &^ f)
		if k.Dir != nil {
			clearFlag(k.Dir, f)
		}
	}
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
	}
	return out
}

// TestReadTruncated cuts a real export at every byte: each cut is an
// error, none a panic or a tree.
func TestReadTruncated(t *testing.T) {
	tr, _, err := Scan(context.Background(), makeTree(t), ScanOptions{Walk: walkWorkers(1)})
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.TrimRight(export(t, tr, true), "\n")
	for i := range len(data) {
		if got, _, err := Read(bytes.NewReader(data[:i])); err == nil {
			t.Fatalf("cut at %d of %d: read as %v", i, len(data), flatten(got, true))
		}
	}
}

func zeroMtimes(d *Dir) {
	d.own.mtime, d.Newest = 0, 0
	kids := d.Entries()
	for i := range kids {
		if kids[i].Dir != nil {
			zeroMtimes(kids[i].Dir)
		}
		kids[i].Mtime = 0
	}
	d.set(kids)
}

// TestWriteBytes: an export of ncdu 1 (no device, a hard link's count
// unknown), read and written again, keeps its bytes: no "dev" where none
// was given, no "nlink" where it is unknown, a disk usage not in blocks
// of 512 bytes, a name's space, 0x1f, DEL, quote and backslash as ncdu
// writes them. Under -L every file with an
// inode is written as a link, one without is not.
func TestWriteBytes(t *testing.T) {
	const head = `[1,2,{"progname":"fdu","progver":"test","timestamp":1},` + "\n"
	const entries = `[{"name":"/r","asize":4096,"dsize":4096},` + "\n" +
		`{"name":"a b\u001f` + "\x7f" + `\"\\","asize":1,"dsize":1000},` + "\n" +
		`{"name":"h","asize":2,"dsize":4096,"ino":7,"hlnkc":true},` + "\n"
	in := `[1,0,{"progname":"ncdu","progver":"1.15","timestamp":1},` + "\n" + entries + `{"name":"s","asize":3,"ino":9}]]` + "\n"
	tr, _, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		follow bool
		want   string
	}{
		{false, head + entries + `{"name":"s","asize":3}]]` + "\n"},
		{true, head + entries + `{"name":"s","asize":3,"ino":9,"hlnkc":true,"nlink":1}]]` + "\n"},
	} {
		tr.FollowLinks = c.follow
		var b bytes.Buffer
		if err := Write(&b, tr, testMeta); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("follow %v: wrote\n%q\nwant\n%q", c.follow, b.String(), c.want)
		}
	}
}
