package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// terminal is fdu running in a real terminal: a tmux session of its own
// server, driven by send-keys and read by capture-pane.
type terminal struct {
	t    *testing.T
	sock string
}

// startTerminal runs this test binary as fdu with args in a w x h tmux
// window; env is added to fdu's environment.
func startTerminal(t *testing.T, w, h int, env []string, args ...string) *terminal {
	t.Helper()
	return startTerminalScript(t, w, h, env, "", "", args...)
}

// startTerminalScript is startTerminal with redirect (such as 2>file)
// after fdu's command and the shell commands after run once it exits.
func startTerminalScript(t *testing.T, w, h int, env []string, redirect, after string, args ...string) *terminal {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install tmux); .ci/run installs it")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	skipEmulated(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	for _, e := range append(env, helperEnv+"="+strings.Join(args, "\x1f")) {
		k, v, _ := strings.Cut(e, "=")
		fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	fmt.Fprintf(&sh, "'%s' %s\necho \"fdu exited $?\"\n%s\nsleep 600\n", self, redirect, after)
	if err := os.WriteFile(script, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := &terminal{t: t, sock: filepath.Join(dir, "tmux.sock")}
	cmd := exec.Command(tmux, "-S", tm.sock, "-f", "/dev/null", "new-session", "-d", "-s", "fdu", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command(tmux, "-S", tm.sock, "kill-server").Run() })
	return tm
}

func (tm *terminal) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys types each key (tmux's names: Enter, Left, C-c) with a pause, so
// an escape is never read as alt and the next key.
func (tm *terminal) keys(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		tm.tmux("send-keys", "-t", "fdu", k)
		time.Sleep(30 * time.Millisecond)
	}
}

func (tm *terminal) screen() string { return tm.tmux("capture-pane", "-p", "-t", "fdu") }

// waitFor waits until the screen shows want, and returns it.
func (tm *terminal) waitFor(want string) string {
	tm.t.Helper()
	var s string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if s = tm.screen(); strings.Contains(s, want) {
			return s
		}
	}
	tm.t.Fatalf("the screen never showed %q:\n%s", want, s)
	return ""
}

// entries is the screen's list lines, from the third to the footer.
func entries(screen string) []string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	var out []string
	for _, l := range lines[2 : len(lines)-1] {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func footer(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return lines[len(lines)-1]
}

// browseTree makes a tree whose entries sort differently by size, name
// and count.
func browseTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]int{
		"big/one": 300 << 10, "big/two": 200 << 10, "big/three": 100 << 10,
		"many/a": 1, "many/b": 1, "many/c": 1, "many/d": 1, "many/e": 1, "many/f": 1,
		"alone": 50 << 10, ".hidden": 10 << 10,
	}
	for name, size := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(20 * time.Millisecond) // older than the scan by a tick of the clock file times use: deletable
	return root
}

func names(lines []string) []string {
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		out = append(out, f[len(f)-1])
	}
	return out
}

func TestBrowserNavigateSortDelete(t *testing.T) {
	root := browseTree(t)
	tm := startTerminal(t, 100, 30, nil, "-i", root)
	s := tm.waitFor("Total disk usage")
	if got, want := strings.Join(names(entries(s)), " "), "/big alone /many .hidden"; got != want {
		t.Fatalf("by size: %s, want %s\n%s", got, want, s)
	}
	tm.keys("n")
	if s = tm.waitFor("/big"); strings.Join(names(entries(s)), " ") != ".hidden alone /big /many" {
		t.Errorf("by name:\n%s", s)
	}
	tm.keys("C")
	if s = tm.waitFor("/many"); names(entries(s))[0] != "/many" {
		t.Errorf("by count:\n%s", s)
	}
	tm.keys("e")
	if s = tm.waitFor("/many"); strings.Contains(s, ".hidden") {
		t.Errorf("e did not hide .hidden:\n%s", s)
	}
	tm.keys("e", "s", "g", "Enter") // by size again, the top entry: big
	s = tm.waitFor("--- " + root + "/big ")
	if got := strings.Join(names(entries(s)), " "); got != "one two three" {
		t.Fatalf("in big: %s\n%s", got, s)
	}
	before := footer(s)
	tm.keys("j", "d")
	tm.waitFor("Delete " + root + "/big/two?")
	tm.keys("y")
	s = tm.waitFor("--- " + root + "/big ")
	for strings.Contains(s, "two") {
		s = tm.screen()
	}
	if _, err := os.Stat(filepath.Join(root, "big", "two")); !os.IsNotExist(err) {
		t.Fatalf("big/two still on disk: %v", err)
	}
	want := fmt.Sprintf("Total disk usage: %s", browse.Human(duBytes(t, filepath.Join(root, "big")), false))
	if f := footer(s); !strings.Contains(f, want) || f == before {
		t.Errorf("after the deletion the footer says %q, want %q (before: %q)", f, want, before)
	}
	if sel := strings.Join(names(entries(s)), " "); sel != "one three" {
		t.Errorf("after the deletion: %s", sel)
	}
	tm.keys("Left")
	s = tm.waitFor("--- " + root + " ")
	wantRoot := fmt.Sprintf("Total disk usage: %s", browse.Human(duBytes(t, root), false))
	if !strings.Contains(footer(s), wantRoot) {
		t.Errorf("the root's total after the deletion: %q, want %q", footer(s), wantRoot)
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// duBytes is GNU du's disk usage of dir in bytes.
func duBytes(t *testing.T, dir string) int64 {
	t.Helper()
	out, err := exec.Command("du", "-sB1", dir).Output()
	if err != nil {
		t.Skipf("GNU du: %v", err)
	}
	var n int64
	fmt.Sscan(string(out), &n)
	return n
}

func TestBrowserHelpInfoAndKeysInHelp(t *testing.T) {
	root := browseTree(t)
	tm := startTerminal(t, 80, 24, nil, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("?")
	s := tm.waitFor("fdu help")
	for _, k := range []string{"delete the selected entry", "sort by size / name", "H  a hard link"} {
		if !strings.Contains(s, k) {
			t.Errorf("help lacks %q:\n%s", k, s)
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("a line wider than 80 columns: %q", l)
		}
	}
	tm.keys("Escape")
	for strings.Contains(tm.screen(), "fdu help") {
		time.Sleep(20 * time.Millisecond)
	}
	tm.keys("i")
	s = tm.waitFor("Item info")
	if !strings.Contains(s, "Path:        "+root+"/big") || !strings.Contains(s, "Inode:") {
		t.Errorf("info:\n%s", s)
	}
	tm.keys("Escape", "q")
	tm.waitFor("fdu exited 0")
}

func TestBrowserReadOnlyAndImported(t *testing.T) {
	root := browseTree(t)
	export := filepath.Join(t.TempDir(), "scan.json")
	if code := run([]string{"-o", export, root}, nil, os.Stdout, os.Stderr); code != 0 {
		t.Fatalf("fdu -o: %d", code)
	}
	tm := startTerminal(t, 100, 30, nil, "-f", export)
	tm.waitFor("[imported]")
	tm.keys("d")
	tm.waitFor("read from " + export + ", not scanned")
	tm.keys("q")
	tm.waitFor("fdu exited 0")

	tm = startTerminal(t, 100, 30, nil, "--read-only", "-i", root)
	tm.waitFor("[read-only]")
	tm.keys("d")
	tm.waitFor("read-only mode")
	tm.keys("r")
	tm.waitFor("read-only mode")
	if _, err := os.Stat(filepath.Join(root, "big")); err != nil {
		t.Fatal(err)
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

func TestBrowserResizes(t *testing.T) {
	root := browseTree(t)
	tm := startTerminal(t, 100, 30, nil, "-i", root)
	tm.waitFor("Total disk usage")
	tm.tmux("resize-window", "-t", "fdu", "-x", "60", "-y", "12")
	var s string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		s = tm.screen()
		if lines := strings.Split(strings.TrimRight(s, "\n"), "\n"); len(lines) == 12 && strings.Contains(lines[11], "Total disk") {
			break
		}
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) != 12 || !strings.Contains(lines[11], "Total disk") {
		t.Fatalf("after resizing to 60x12:\n%s", s)
	}
	for _, l := range lines {
		if len([]rune(l)) > 60 {
			t.Errorf("wider than 60: %q", l)
		}
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// colorSGR is an escape sequence that sets a colour (not 39 and 49, the
// defaults).
var colorSGR = regexp.MustCompile(`\x1b\[(?:[0-9]+;)*(?:3[0-8]|4[0-8])(?:;[0-9]+)*m`)

func TestBrowserNoColor(t *testing.T) {
	root := browseTree(t)
	for _, c := range []struct {
		env   []string
		args  []string
		color bool
	}{
		{nil, nil, true},
		{[]string{"NO_COLOR=1"}, nil, false},
		{nil, []string{"--no-color"}, false},
	} {
		tm := startTerminal(t, 100, 30, append(c.env, "TERM=xterm-256color"), append(c.args, "-i", root)...)
		tm.waitFor("Total disk usage")
		s := tm.tmux("capture-pane", "-e", "-p", "-t", "fdu")
		colored := colorSGR.MatchString(s)
		if colored != c.color {
			t.Errorf("%v %v: colours %v, want %v:\n%q", c.env, c.args, colored, c.color, s)
		}
		tm.keys("q")
		tm.waitFor("fdu exited 0")
	}
}

func TestBrowserRescanAndShell(t *testing.T) {
	root := browseTree(t)
	tm := startTerminal(t, 100, 30, []string{"SHELL=/bin/sh", "PS1=shell$ "}, "-i", root)
	tm.waitFor("Total disk usage")
	tm.keys("b")
	tm.waitFor("shell$")
	// A ctrl-c in the shell reaches fdu too (one process group): it must
	// not end the browser.
	tm.keys("head -c 2000000 /dev/zero > added; kill -INT $PPID; sleep 0.2; exit", "Enter")
	tm.waitFor("Back from the shell")
	tm.keys("r")
	s := tm.waitFor("added")
	if names(entries(s))[0] != "added" {
		t.Errorf("after a rescan the largest entry is not added:\n%s", s)
	}
	want := fmt.Sprintf("Total disk usage: %s", browse.Human(duBytes(t, root), false))
	if !strings.Contains(footer(s), want) {
		t.Errorf("footer %q, want %q", footer(s), want)
	}
	tm.keys("q")
	tm.waitFor("fdu exited 0")
}

// TestExportTargets: -o writes a regular file whole or not at all (renamed
// into place, its mode kept), and writes through anything else: a FIFO
// stays a FIFO (once, /dev/null became a regular file), a link leads to
// its target.
func TestExportTargets(t *testing.T) {
	root := browseTree(t)
	dir := t.TempDir()
	fdu := func(args ...string) (int, string) {
		var out, errb strings.Builder
		code := run(args, strings.NewReader(""), &out, &errb)
		return code, out.String() + errb.String()
	}
	existing := filepath.Join(dir, "existing.json")
	os.WriteFile(existing, []byte("old"), 0o640)
	if code, msg := fdu("-o", existing, root); code != 0 {
		t.Fatalf("%d %s", code, msg)
	}
	if st, _ := os.Stat(existing); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", st.Mode())
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink("existing.json", link)
	if code, msg := fdu("-o", link, root); code != 0 {
		t.Fatalf("%d %s", code, msg)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() { b, _ := os.ReadFile(fifo); got <- b }()
	if code, msg := fdu("-o", fifo, root); code != 0 {
		t.Fatalf("%d %s", code, msg)
	}
	data := <-got
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", st.Mode())
	}
	if !strings.HasPrefix(string(data), `[1,2,{"progname":"fdu"`) {
		t.Errorf("through the FIFO: %.60q", data)
	}
	if code, msg := fdu("-o", filepath.Join(dir, "no", "such", "dir.json"), root); code != 1 || !strings.Contains(msg, "No such file or directory") {
		t.Errorf("into a missing directory: %d %q", code, msg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestImportErrors: a malformed or truncated file is an error with its
// place, exit 1, never a panic; -f - reads stdin, and -o - writes stdout.
func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("[1,2,{},\n[{\"name\":\"/x\"},\n{\"name\":\"a\",\"asize\":}]]"), 0o644)
	var out, errb strings.Builder
	if code := run([]string{"-f", bad, "-o", "-"}, nil, &out, &errb); code != 1 ||
		errb.String() != "fdu: "+bad+": line 3, column 21 (byte 45): expected a number\n" {
		t.Errorf("%d %q", code, errb.String())
	}
	root := browseTree(t)
	out.Reset()
	if code := run([]string{"-o", "-", root}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	exported := out.String()
	for cut := 0; cut < len(exported)-2; cut += 7 {
		var o, e strings.Builder
		if code := run([]string{"-f", "-", "-o", "-"}, strings.NewReader(exported[:cut]), &o, &e); code != 1 || !strings.Contains(e.String(), "line ") {
			t.Fatalf("cut at %d: %d %q", cut, code, e.String())
		}
	}
	var o, e strings.Builder
	if code := run([]string{"-f", "-", "-o", "-"}, strings.NewReader(exported), &o, &e); code != 0 || o.String()[strings.Index(o.String(), "\n"):] != exported[strings.Index(exported, "\n"):] {
		t.Errorf("stdin to stdout: %d %q", code, e.String())
	}
}

// TestExportKeepsWhatItShould: a missing directory to scan leaves a good
// file alone; a file with other links is written in place, so they see
// it; a dangling link gets its target made.
func TestExportKeepsWhatItShould(t *testing.T) {
	root := browseTree(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte("keep me"), 0o644)
	var out, errb strings.Builder
	if code := run([]string{"-o", good, filepath.Join(dir, "missing")}, nil, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "cannot access") {
		t.Errorf("a missing directory: %d %q", code, errb.String())
	}
	if b, _ := os.ReadFile(good); string(b) != "keep me" {
		t.Errorf("good.json replaced by %q", b)
	}
	if code := run([]string{"-i", filepath.Join(dir, "missing")}, nil, &out, &errb); code != 1 {
		t.Errorf("-i of a missing directory: %d", code)
	}
	other := filepath.Join(dir, "other")
	if err := os.Link(good, other); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"-o", good, root}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	if b, _ := os.ReadFile(other); !strings.HasPrefix(string(b), "[1,2,") {
		t.Errorf("the other link still holds %.20q", b)
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("made.json", dangling)
	if code := run([]string{"-o", dangling, root}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	if st, err := os.Lstat(dangling); err != nil || st.Mode()&os.ModeSymlink == 0 || !exists(filepath.Join(dir, "made.json")) {
		t.Errorf("the link was replaced or its target not made: %v", err)
	}
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

// TestExportOverAnotherUsersName: in a sticky directory everyone may
// write, another user's link named as the export's file leads nowhere:
// the export is refused and what the link leads to is left as it was, as
// a shell's > through it is under fs.protected_symlinks. The user's own
// link there is written through.
func TestExportOverAnotherUsersName(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to give a link to another user")
	}
	root := browseTree(t)
	base := t.TempDir()
	shadow := filepath.Join(base, "shadow")
	if err := os.WriteFile(shadow, []byte("root:hash"), 0o640); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	theirs, mine := filepath.Join(tmp, "scan.json"), filepath.Join(tmp, "mine.json")
	for _, l := range []string{theirs, mine} {
		if err := os.Symlink(shadow, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Lchown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	if code := run([]string{"-o", theirs, root}, nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "not followed") {
		t.Errorf("export through another user's link: exit %d, %q", code, errb.String())
	}
	if b, _ := os.ReadFile(shadow); string(b) != "root:hash" {
		t.Fatalf("the link's target was replaced by %.20q", b)
	}
	errb.Reset()
	if code := run([]string{"-o", mine, root}, nil, &out, &errb); code != 0 {
		t.Fatalf("export through one's own link: %s", errb.String())
	}
	if b, _ := os.ReadFile(shadow); !strings.HasPrefix(string(b), "[1,2,") {
		t.Errorf("one's own link was not written through: %.20q", b)
	}

	// A hard link there to a file of root's elsewhere (which another user
	// may make where fs.protected_hardlinks is off): not written through.
	job := filepath.Join(base, "job")
	if err := os.WriteFile(job, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(tmp, "linked.json")
	if err := os.Link(job, linked); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"-o", linked, root}, nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "other links") {
		t.Errorf("export over a hard link in a sticky directory: exit %d, %q", code, errb.String())
	}
	if b, _ := os.ReadFile(job); string(b) != "#!/bin/sh\n" {
		t.Errorf("the file linked was written through: %.20q", b)
	}

	// Another user's file, or FIFO, made beforehand under the name: not
	// written, so root's scan does not become theirs to read.
	for _, made := range []string{"regular", "fifo"} {
		planted := filepath.Join(tmp, made+".json")
		if made == "fifo" {
			if err := syscall.Mkfifo(planted, 0o666); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(planted, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(planted, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		errb.Reset()
		done := make(chan int, 1)
		go func() { done <- run([]string{"-o", planted, root}, nil, &out, &errb) }()
		select {
		case code := <-done:
			if code == 0 || !strings.Contains(errb.String(), "not written") {
				t.Errorf("export over another user's %s file: exit %d, %q", made, code, errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("export over another user's FIFO blocked: it opened the FIFO")
		}
		if st, err := os.Lstat(planted); err != nil || st.Size() != 0 || st.Sys().(*syscall.Stat_t).Uid != 65534 {
			t.Errorf("another user's %s file was written or replaced: %v", made, err)
		}
	}
}

// skipEmulated skips a test that runs this test binary again, under
// qemu-user (.ci/run's linux/arm64 step sets FRD_EMULATED): tmux cannot
// start another architecture's binary, and a second qemu of it can hang.
func skipEmulated(t *testing.T) {
	t.Helper()
	if os.Getenv("FRD_EMULATED") != "" {
		t.Skip("skipping: runs the test binary again, which an emulated run (FRD_EMULATED) cannot")
	}
}

// TestExportUnreadableAsNobody: as nobody, a directory that cannot be read
// is marked read_error and keeps its own size, as ncdu writes it and as du
// counts it (not 4 KiB less, and not "dev":0).
func TestExportUnreadableAsNobody(t *testing.T) {
	du := gnuDu(t)
	skipEmulated(t)
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run as nobody")
	}
	top := testfs.WorldDir(t)
	root := filepath.Join(top, "d")
	for _, p := range []string{"C/locked/x", "C/open/y"} {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "C", "open", "f"), make([]byte, 9000), 0o644)
	if err := os.Chmod(filepath.Join(root, "C", "locked"), 0); err != nil {
		t.Fatal(err)
	}
	res := testfs.RunAsNobodyResult(t, top, helperEnv+"="+strings.Join([]string{"-o", "-", "d"}, "\x1f"), helperEnv+"_DIR="+top)
	if res.Code != 1 || !strings.Contains(res.Stderr, "cannot read directory 'd/C/locked': Permission denied") {
		t.Errorf("exit %d, stderr %q", res.Code, res.Stderr)
	}
	tr, _, err := dutree.Read(strings.NewReader(res.Stdout))
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Stdout)
	}
	cmd := exec.Command(du, "-sB1", "d")
	cmd.Dir = top
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, _ := cmd.Output()
	var want int64
	fmt.Sscan(string(out), &want)
	if tr.Top.Dsize != want || want == 0 {
		t.Errorf("disk usage %d, du as nobody %d", tr.Top.Dsize, want)
	}
	locked := tr.Find([]string{"C", "locked"})
	if locked == nil || locked.Flags&dutree.ReadError == 0 || locked.Dsize == 0 || locked.Dir.Dev != tr.Top.Dev {
		t.Errorf("locked: %+v", locked)
	}
}

// TestExportUnreadableRootAsNobody: as nobody, a root that cannot be read
// is an error said once, with no export, whether it is streamed or
// scanned whole (-L): as du says it, and as ncdu 1.18 refuses it.
func TestExportUnreadableRootAsNobody(t *testing.T) {
	skipEmulated(t)
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run as nobody")
	}
	top := lockedTop(t)
	for _, args := range [][]string{{"-o", "-", "locked"}, {"-L", "-o", "-", "locked"}} {
		res := testfs.RunAsNobodyResult(t, top, helperEnv+"="+strings.Join(args, "\x1f"), helperEnv+"_DIR="+top)
		msg := "cannot read directory 'locked': Permission denied\n"
		if res.Code != 1 || !strings.HasSuffix(res.Stderr, msg) || strings.Count(res.Stderr, "\n") != 1 || res.Stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 1, the error alone, no export", args, res.Code, res.Stderr, res.Stdout)
		}
	}
}

// lockedTop is a directory everyone may enter holding "locked", a
// directory with a subdirectory that only root can read.
func lockedTop(t *testing.T) string {
	t.Helper()
	top := testfs.WorldDir(t)
	if err := os.MkdirAll(filepath.Join(top, "locked", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(top, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	return top
}

// TestBrowseUnreadableRootAsNobody: fdu -i given a directory it cannot
// read says why once the screen is put back, and exits 1.
func TestBrowseUnreadableRootAsNobody(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run as nobody")
	}
	locked := filepath.Join(testfs.WorldDir(t), "locked")
	if err := os.Mkdir(locked, 0); err != nil {
		t.Fatal(err)
	}
	tm := startTerminal(t, 120, 24, []string{helperEnv + "_NOBODY=1"}, "-i", locked)
	s := tm.waitFor("fdu exited")
	if !strings.Contains(s, "cannot read directory '"+locked+"': Permission denied") || !strings.Contains(s, "fdu exited 1") {
		t.Errorf("the screen after fdu -i:\n%s", s)
	}
}

// TestExportUnreadableKeepsTheOldFile: an export whose root cannot be
// read leaves the file it was to replace as it was, whether it would have
// renamed a new one over it or, in a directory the user may not write,
// written it in place.
func TestExportUnreadableKeepsTheOldFile(t *testing.T) {
	skipEmulated(t)
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run as nobody")
	}
	top := lockedTop(t)
	for dir, mode := range map[string]os.FileMode{"open": 0o777, "closed": 0o755} {
		file := filepath.Join(top, dir, "mine.json")
		if err := os.Mkdir(filepath.Join(top, dir), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(top, dir), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte("PREVIOUS"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(file, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		args := []string{"-o", filepath.Join(dir, "mine.json"), "locked"}
		res := testfs.RunAsNobodyResult(t, top, helperEnv+"="+strings.Join(args, "\x1f"), helperEnv+"_DIR="+top)
		if b, err := os.ReadFile(file); res.Code != 1 || err != nil || string(b) != "PREVIOUS" {
			t.Errorf("%q: exit %d (%q); the old file now %q (%v)", args, res.Code, res.Stderr, b, err)
		}
	}
}

// TestExportInAnotherUsersDirectory: in a directory another user owns
// (not sticky, so no fs.protected_* applies), what they made under the
// export's name beforehand, as E's default name in the working directory
// would be, is neither followed nor written: their link to a file of
// root's, their FIFO (no blocking), their file, and a hard link to a file
// of root's (as where fs.protected_hardlinks is off).
func TestExportInAnotherUsersDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to give names to another user")
	}
	root := browseTree(t)
	base := t.TempDir()
	bashrc := filepath.Join(base, "bashrc")
	if err := os.WriteFile(bashrc, []byte("root's"), 0o644); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(base, "theirs")
	if err := os.Mkdir(theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	link, fifo, file, hard := filepath.Join(theirs, "link.json"), filepath.Join(theirs, "fifo.json"),
		filepath.Join(theirs, "file.json"), filepath.Join(theirs, "hard.json")
	if err := os.Symlink(bashrc, link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, fifo, file} {
		if err := os.Lchown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(bashrc, hard); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{link, fifo, file, hard} {
		var out, errb strings.Builder
		done := make(chan int, 1)
		go func() { done <- run([]string{"-o", name, root}, nil, &out, &errb) }()
		select {
		case code := <-done:
			if code == 0 {
				t.Errorf("export to %s: written (%q)", filepath.Base(name), errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("export to %s blocked: it opened another user's FIFO", filepath.Base(name))
		}
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "root's" {
		t.Errorf("root's file was written through another user's name: %.20q", b)
	}
	if st, err := os.Lstat(file); err != nil || st.Size() != 0 || st.Sys().(*syscall.Stat_t).Uid != 65534 {
		t.Errorf("another user's file was written or replaced: %v", err)
	}
}
