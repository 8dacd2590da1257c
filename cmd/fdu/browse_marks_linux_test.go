package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
)

// line is the screen's list line of the entry name ("/big" for a
// directory), or "".
func line(screen, name string) string {
	for _, l := range entries(screen) {
		if f := strings.Fields(l); len(f) > 0 && f[len(f)-1] == name {
			return l
		}
	}
	return ""
}

// waitGone waits until the screen no longer shows s.
func (tm *terminal) waitGone(s string) string {
	tm.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if sc := tm.screen(); !strings.Contains(sc, s) {
			return sc
		}
	}
	tm.t.Fatalf("the screen still shows %q:\n%s", s, tm.screen())
	return ""
}

// TestBrowserMarksAcrossDirsAndDelete: marks made in two directories
// stay across them and are counted in the footer; d asks once for all;
// the one swapped for a link since it was marked is refused, the others
// deleted, and the totals then are GNU du's of what is left.
func TestBrowserMarksAcrossDirsAndDelete(t *testing.T) {
	root := browseTree(t)
	tm := startTerminal(t, 140, 30, nil, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("j", "Space") // alone, then the cursor on /many
	s := tm.waitFor("Marked: 1")
	if !strings.HasPrefix(line(s, "alone"), " *") {
		t.Errorf("alone is not shown marked:\n%s", s)
	}
	tm.keys("g", "Enter")
	tm.waitFor("--- " + root + "/big ")
	tm.keys("Space", "j", "Space") // one, then three
	tm.waitFor("Marked: 3")
	tm.keys("Left")
	s = tm.waitFor("--- " + root + " ")
	if !strings.Contains(footer(s), "Marked: 3") || !strings.HasPrefix(line(s, "alone"), " *") {
		t.Errorf("the marks did not stay:\n%s", s)
	}
	want := browse.Human(duBytes(t, filepath.Join(root, "alone"))+duBytes(t, filepath.Join(root, "big", "one"))+
		duBytes(t, filepath.Join(root, "big", "three")), false)
	if !strings.Contains(footer(s), "Marked: 3, "+want) {
		t.Errorf("the marks' total is not %s:\n%s", want, footer(s))
	}

	three := filepath.Join(root, "big", "three")
	if err := os.Remove(three); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("one", three); err != nil {
		t.Fatal(err)
	}
	tm.keys("d")
	tm.waitFor("Delete 3 marked entries")
	tm.keys("y")
	s = tm.waitFor("Deleted: 2 entries")
	if !strings.Contains(s, "Refused: 1") || !strings.Contains(s, root+"/big/three: not the file scanned") {
		t.Errorf("the summary:\n%s", s)
	}
	for _, gone := range []string{"alone", "big/one"} {
		if exists(filepath.Join(root, gone)) {
			t.Errorf("%s is still on disk", gone)
		}
	}
	if st, err := os.Lstat(three); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link put in place of three was touched: %v", err)
	}
	tm.keys("Escape")
	s = tm.waitGone("Deleted: 2 entries")
	wantTotal := "Total disk usage: " + browse.Human(duBytes(t, root), false)
	if !strings.Contains(footer(s), wantTotal) {
		t.Errorf("after the deletion the footer says %q, want %q", footer(s), wantTotal)
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// TestBrowserTrash: D moves the marked entries to the home trash, where
// trash-list sees each under its original path and trash-restore puts it
// back whole.
func TestBrowserTrash(t *testing.T) {
	if _, err := exec.LookPath("trash-restore"); err != nil {
		t.Skip("trash-cli is not installed (apt-get install trash-cli); .ci/run installs it")
	}
	data := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + data}
	root := browseTree(t)
	tm := startTerminal(t, 140, 30, env, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("j", "Space", "Space") // alone and /many
	tm.waitFor("Marked: 2")
	tm.keys("D")
	tm.waitFor("Move to the trash 2 marked entries")
	tm.keys("y")
	s := tm.waitFor("Moved to the trash: 2 entries")
	if !strings.Contains(s, root+"/alone -> "+filepath.Join(data, "Trash", "files", "alone")) {
		t.Errorf("the summary:\n%s", s)
	}
	tm.keys("Escape")
	s = tm.waitGone("Moved to the trash: 2")
	if want := "Total disk usage: " + browse.Human(duBytes(t, root), false); !strings.Contains(footer(s), want) {
		t.Errorf("after the trash the footer says %q, want %q", footer(s), want)
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")

	trashCLI := func(stdin string, args ...string) string {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Dir, cmd.Stdin = root, strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", args, err, out)
		}
		return string(out)
	}
	list := trashCLI("", "trash-list")
	for _, p := range []string{"alone", "many"} {
		if !strings.Contains(list, " "+filepath.Join(root, p)+"\n") {
			t.Errorf("trash-list lacks %s:\n%s", p, list)
		}
	}
	trashCLI("0\n", "trash-restore", root)
	trashCLI("0\n", "trash-restore", root)
	if st, err := os.Stat(filepath.Join(root, "alone")); err != nil || st.Size() != 50<<10 {
		t.Errorf("alone not restored whole: %v", err)
	}
	for _, f := range []string{"a", "b", "c", "d", "e", "f"} {
		if !exists(filepath.Join(root, "many", f)) {
			t.Errorf("many/%s not restored", f)
		}
	}
}

// ageTree makes root/mixed/old (2020) and root/mixed/new (now), with
// touch -d, and root/older (2019).
func ageTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, size := range map[string]int{"mixed/old": 200 << 10, "mixed/new": 100 << 10, "older": 30 << 10} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, when := range map[string]string{"mixed/old": "2020-03-01 12:00", "older": "2019-01-01"} {
		if out, err := exec.Command("touch", "-d", when, filepath.Join(root, name)).CombinedOutput(); err != nil {
			t.Fatalf("touch -d: %v\n%s", err, out)
		}
	}
	time.Sleep(20 * time.Millisecond)
	return root
}

// TestBrowserAgeFilter: --max-age hides the old files, a directory's size
// counts only what is shown, deleting a directory where files are hidden
// is refused; F changes the filter (until=), and an empty line clears it.
func TestBrowserAgeFilter(t *testing.T) {
	root := ageTree(t)
	mixed := filepath.Join(root, "mixed")
	shown := duBytes(t, mixed) - duBytes(t, filepath.Join(mixed, "old"))
	tm := startTerminal(t, 140, 30, nil, "--max-age=30d", "-i", root)
	s := tm.waitFor("age: max-age=30d; 2 hidden")
	if l := line(s, "/mixed"); !strings.Contains(l, browse.Human(shown, false)) {
		t.Errorf("mixed under the filter: %q, want %s\n%s", l, browse.Human(shown, false), s)
	}
	if line(s, "older") != "" {
		t.Errorf("older is shown:\n%s", s)
	}
	tm.keys("d")
	tm.waitFor("Not deleted: the age filter (max-age=30d) hides 1 file in it")
	tm.keys("Enter")
	s = tm.waitFor("--- " + mixed + " ")
	if got := strings.Join(names(entries(s)), " "); got != "new" {
		t.Errorf("in mixed: %s", got)
	}
	tm.keys("Left", "F", "C-u")
	for _, r := range "until=2020-03-01" {
		tm.keys(string(r))
	}
	tm.keys("Enter")
	s = tm.waitFor("age: until=2020-03-01; 1 hidden")
	if line(s, "older") == "" {
		t.Errorf("older is not shown until 2020-03-01:\n%s", s)
	}
	tm.keys("F", "C-u", "Enter")
	tm.waitFor("Total disk usage: " + browse.Human(duBytes(t, root), false))
	if !exists(mixed) {
		t.Errorf("mixed was deleted")
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// TestBrowserEmptyFile: z empties the selected file, its size shown as
// the disk's; a file replaced since the scan is refused and kept whole.
func TestBrowserEmptyFile(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a-big", "b-swapped"} {
		if err := os.WriteFile(filepath.Join(root, name), make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(20 * time.Millisecond)
	tm := startTerminal(t, 100, 30, nil, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("n", "z") // by name: a-big first
	tm.waitFor("Empty " + root + "/a-big?")
	tm.keys("y")
	s := tm.waitFor("Emptied a-big")
	if st, _ := os.Stat(filepath.Join(root, "a-big")); st.Size() != 0 {
		t.Errorf("a-big has %d bytes", st.Size())
	}
	if l := line(s, "a-big"); !strings.Contains(l, " 0 B ") {
		t.Errorf("a-big's line: %q", l)
	}
	swapped := filepath.Join(root, "b-swapped")
	os.Rename(swapped, filepath.Join(root, "kept"))
	if err := os.WriteFile(swapped, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.keys("j", "z")
	tm.waitFor("Empty " + swapped + "?")
	tm.keys("y")
	tm.waitFor("Cannot empty b-swapped: not the file scanned")
	for _, p := range []string{swapped, filepath.Join(root, "kept")} {
		if st, _ := os.Stat(p); st.Size() != 1<<20 {
			t.Errorf("%s was emptied", p)
		}
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// TestBrowserSearchAndQuitPrintingPath: / shows the names holding what is
// typed and esc shows all again; under --confirm-quit q asks, and Q
// prints the directory shown on stdout once the terminal is restored.
func TestBrowserSearchAndQuitPrintingPath(t *testing.T) {
	root := browseTree(t)
	out := filepath.Join(t.TempDir(), "out")
	tm := startTerminalScript(t, 100, 30, nil, ">"+out, "", "--confirm-quit", "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("/", "a", "n")
	s := tm.waitFor("Search: an_")
	if got := strings.Join(names(entries(s)), " "); got != "/many" {
		t.Errorf("searching an: %s\n%s", got, s)
	}
	tm.keys("Escape")
	s = tm.waitGone("Search:")
	if len(entries(s)) != 4 {
		t.Errorf("esc did not clear the search:\n%s", s)
	}
	tm.keys("g", "Enter")
	tm.waitFor("--- " + root + "/big ")
	tm.keys("q")
	tm.waitFor("Really quit")
	tm.keys("n")
	tm.waitGone("Really quit")
	tm.keys("Q")
	tm.waitFor("Really quit")
	tm.keys("y")
	tm.waitFor("fdu exited 0")
	got, err := os.ReadFile(out)
	if err != nil || string(got) != root+"/big\n" {
		t.Errorf("stdout: %q (%v), want %q", got, err, root+"/big\n")
	}
}
