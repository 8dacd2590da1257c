package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// exportOf runs fdu with args and -o -, and reads the export back.
func exportOf(t *testing.T, args ...string) *dutree.Tree {
	t.Helper()
	var out, errb strings.Builder
	if code := run(append(args, "-o", "-"), nil, &out, &errb); code != 0 {
		t.Fatalf("fdu %q: %d %s", args, code, errb.String())
	}
	tr, _, err := dutree.ReadWith(strings.NewReader(out.String()), dutree.ReadOptions{Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// paths lists the tree's entries below its root, a directory with a
// slash, an excluded one with a <.
func paths(tr *dutree.Tree) []string {
	var out []string
	var walk func(d *dutree.Dir, prefix string)
	walk = func(d *dutree.Dir, prefix string) {
		for _, k := range d.Entries() {
			p := prefix + k.Name
			switch {
			case k.Flags&dutree.Excluded != 0:
				out = append(out, "<"+p)
			case k.Dir != nil:
				out = append(out, p+"/")
				walk(k.Dir, p+"/")
			default:
				out = append(out, p)
			}
		}
	}
	walk(tr.Top, "")
	slices.Sort(out)
	return out
}

func makeFiles(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIgnoreFrom(t *testing.T) {
	root := t.TempDir()
	makeFiles(t, root, "a.log", "keep.log", "sub/b.log", "sub/keep.log", "build/out", "src/build", "top", "sub/top",
		"deep/x/y/z.tmp", "deep/z.tmp", "src/main.go", "vendor/")
	patterns := filepath.Join(t.TempDir(), "ignore")
	os.WriteFile(patterns, []byte("# logs, but one\n*.log\n!keep.log\n\nbuild/\n/top\ndeep/**/*.tmp\nvendor\n"), 0o644)
	got := paths(exportOf(t, "--ignore-from", patterns, root))
	want := []string{"<a.log", "<build", "<deep/x/y/z.tmp", "<deep/z.tmp", "<sub/b.log", "<top", "<vendor",
		"deep/", "deep/x/", "deep/x/y/", "keep.log", "src/", "src/build", "src/main.go", "sub/", "sub/keep.log", "sub/top"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var out, errb strings.Builder
	if code := run([]string{"--ignore-from", filepath.Join(root, "missing"), "-o", "-", root}, nil, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "No such file") {
		t.Errorf("a missing pattern file: %d %q", code, errb.String())
	}
	if code := run([]string{"--ignore-from", patterns, "-s", root}, nil, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "--ignore-from goes with -i, -o or -f") {
		t.Errorf("in du's report: %d %q", code, errb.String())
	}
}

func TestExcludeCachesAndFollowLinks(t *testing.T) {
	root := t.TempDir()
	makeFiles(t, root, "cache/big", "d/f", "d/g")
	os.WriteFile(filepath.Join(root, "cache/CACHEDIR.TAG"), []byte("Signature: 8a477f597d28d172789f06886806bc55\n"), 0o644)
	os.Symlink("d", filepath.Join(root, "l"))
	os.Symlink("..", filepath.Join(root, "d/up"))
	os.Symlink("f", filepath.Join(root, "d/lf"))
	if got := paths(exportOf(t, "--exclude-caches", root)); !slices.Contains(got, "<cache") || slices.Contains(got, "cache/big") {
		t.Errorf("--exclude-caches: %q", got)
	}
	if got := paths(exportOf(t, root)); !slices.Contains(got, "cache/big") {
		t.Errorf("without --exclude-caches: %q", got)
	}
	// -L: the links followed, the loop left out, each file counted once,
	// as du -L counts.
	tr := exportOf(t, "-L", root)
	got := paths(tr)
	if !slices.Contains(got, "l/") || !slices.Contains(got, "d/") {
		t.Errorf("-L: %q", got)
	}
	out, err := exec.Command("du", "-L", "-sB1", root).Output()
	if err != nil {
		t.Skipf("GNU du: %v", err)
	}
	if f := strings.Fields(string(out)); len(f) == 0 || f[0] != itoa(tr.Top.Dsize) {
		t.Errorf("-L total %d, du -L says %s", tr.Top.Dsize, out)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

func octal(m uint32) string { return strconv.FormatUint(uint64(m), 8) }

// TestExtendedRoundTripWithNcdu: ncdu -e -o's file read by fdu -f -e and
// written again keeps the owners and modes; fdu -e -o's file read by
// ncdu -e -f and written again too.
func TestExtendedRoundTripWithNcdu(t *testing.T) {
	ncdu, err := exec.LookPath("ncdu")
	if err != nil {
		t.Skip("ncdu is not installed (apt-get install ncdu); .ci/run installs it")
	}
	root := t.TempDir()
	makeFiles(t, root, "a/f", "g")
	os.Chmod(filepath.Join(root, "a/f"), 0o640)
	if os.Geteuid() == 0 {
		os.Lchown(filepath.Join(root, "g"), 4321, 8765)
	}
	theirs := filepath.Join(t.TempDir(), "ncdu.json")
	if out, err := exec.Command(ncdu, "--ignore-config", "-e", "-o", theirs, root).CombinedOutput(); err != nil {
		t.Fatalf("ncdu: %v %s", err, out)
	}
	viaFdu := exportOf(t, "-e", "-f", theirs)
	ours := exportOf(t, "-e", root)
	file := filepath.Join(t.TempDir(), "fdu.json")
	var out, errb strings.Builder
	if code := run([]string{"-e", "-o", file, root}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	back, err := exec.Command(ncdu, "--ignore-config", "-e", "-f", file, "-o", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	viaNcdu, _, err := dutree.ReadWith(strings.NewReader(string(back)), dutree.ReadOptions{Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	want := owners(ours)
	if !strings.Contains(want, "f 0 ") && !strings.Contains(want, "f ") {
		t.Fatalf("no owners: %s", want)
	}
	for name, tr := range map[string]*dutree.Tree{"ncdu -e -o read by fdu -f -e": viaFdu, "fdu -e -o read by ncdu -e -f": viaNcdu} {
		if got := owners(tr); got != want {
			t.Errorf("%s:\n%s\nfdu's scan:\n%s", name, got, want)
		}
	}
	if os.Geteuid() == 0 && !strings.Contains(want, "g 4321 8765 100644") {
		t.Errorf("the owner set is not kept: %s", want)
	}
	if !strings.Contains(want, "f ") || !strings.Contains(want, " 100640") {
		t.Errorf("the mode set is not kept: %s", want)
	}
}

// owners lists each entry below the root with its uid, gid, mode (octal)
// and mtime.
func owners(tr *dutree.Tree) string {
	var out []string
	var walk func(d *dutree.Dir)
	walk = func(d *dutree.Dir) {
		for _, k := range d.Entries() {
			out = append(out, k.Name+" "+fmtInt(int64(k.Ext.Uid))+" "+fmtInt(int64(k.Ext.Gid))+" "+octal(k.Ext.Mode)+" "+fmtInt(k.Mtime))
			if k.Dir != nil {
				walk(k.Dir)
			}
		}
	}
	walk(tr.Top)
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func TestBrowserOwnerColumnAndExportKey(t *testing.T) {
	root := browseTree(t)
	os.Chmod(filepath.Join(root, "alone"), 0o600)
	tm := startTerminal(t, 100, 30, nil, "-e", "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("o")
	s := tm.waitFor("-rw-------")
	if !strings.Contains(s, "drwxr-xr-x") {
		t.Errorf("no mode for the directories:\n%s", s)
	}
	tm.keys("i")
	s = tm.waitFor("Item info")
	if !strings.Contains(s, "Owner:") || !strings.Contains(s, "Mode:        drwxr-xr-x (0755)") {
		t.Errorf("info without the owner:\n%s", s)
	}
	tm.keys("Escape", "E")
	tm.waitFor("Write the tree")
	file := filepath.Join(t.TempDir(), "from-browser.json")
	tm.keys("C-u", file, "Enter")
	tm.waitFor("exported to " + file)
	tr, _, err := dutree.ReadWith(mustOpen(t, file), dutree.ReadOptions{Extended: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(tr); !slices.Contains(got, "big/one") || !strings.Contains(owners(tr), "alone ") || !strings.Contains(owners(tr), " 100600 ") {
		t.Errorf("the export: %q\n%s", got, owners(tr))
	}
	tm.keys("E", "C-u", filepath.Join(root, "missing", "x.json"), "Enter")
	tm.waitFor("not exported to")
	tm.keys("q")
	tm.waitFor("fdu exited 0")

	// Without -e the column is not there to show.
	tm = startTerminal(t, 100, 30, nil, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("o")
	tm.waitFor("needs extended mode")
	tm.keys("q", "q")
	tm.waitFor("fdu exited 0")
}

func mustOpen(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestBrowserDisks mounts a tmpfs and a loop ext4, finds them in the
// list of disks, opens the tmpfs, then goes back to the list with V.
func TestBrowserDisks(t *testing.T) {
	ext4 := testfs.LoopMount(t, "ext4") // skips unless root, with mkfs.ext4
	mnt := filepath.Join(t.TempDir(), "disk")
	os.Mkdir(mnt, 0o755)
	testfs.MountTmpfs(t, mnt, "size=16m")
	makeFiles(t, mnt, "inside/file")
	tm := startTerminal(t, 160, 40, nil, "-i", "--disks")
	s := tm.waitFor("Mounted disks")
	var rows []string
	for _, l := range strings.Split(s, "\n")[2:] {
		if strings.TrimSpace(l) != "" && !strings.Contains(l, "file systems") {
			rows = append(rows, l)
		}
	}
	at := slices.IndexFunc(rows, func(l string) bool { return strings.HasSuffix(strings.TrimSpace(l), " "+mnt) })
	if at < 0 || !strings.Contains(rows[at], "tmpfs") || !strings.Contains(rows[at], "16.0 MiB") {
		t.Fatalf("the tmpfs is not listed as such:\n%s", s)
	}
	if !slices.ContainsFunc(rows, func(l string) bool {
		return strings.Contains(l, "ext4") && strings.HasSuffix(strings.TrimSpace(l), " "+ext4)
	}) {
		t.Errorf("the ext4 is not listed:\n%s", s)
	}
	if slices.ContainsFunc(rows, func(l string) bool { return strings.HasSuffix(strings.TrimSpace(l), " /proc") }) {
		t.Errorf("/proc is listed:\n%s", s)
	}
	for range at {
		tm.keys("Down")
	}
	tm.keys("Enter")
	s = tm.waitFor("Total disk usage")
	if !strings.Contains(s, mnt) || !strings.Contains(s, "/inside") {
		t.Errorf("not the tmpfs opened:\n%s", s)
	}
	tm.keys("V")
	tm.waitFor("Mounted disks")
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// TestIgnoreFromNotAFile: a pattern file that is a FIFO (another user's
// .gitignore swapped for one), or a link to a device, is refused at once
// with a clear error, without waiting for a writer or reading without end.
func TestIgnoreFromNotAFile(t *testing.T) {
	root := t.TempDir()
	makeFiles(t, root, "a")
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	urandom := filepath.Join(t.TempDir(), "urandom")
	os.Symlink("/dev/urandom", urandom)
	for _, name := range []string{fifo, urandom} {
		var out, errb strings.Builder
		done := make(chan int, 1)
		go func() { done <- run([]string{"--ignore-from", name, "-o", "-", root}, nil, &out, &errb) }()
		select {
		case code := <-done:
			if code != 1 || !strings.Contains(errb.String(), "not a regular file") {
				t.Errorf("--ignore-from %s: %d %q", filepath.Base(name), code, errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("--ignore-from %s: still reading after 10 s", filepath.Base(name))
		}
	}
}
