package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapTree makes a small tree, waits out the racy window, and snapshots
// it with frd snap into a file beside it.
func snapTree(t *testing.T) (dir, snap string) {
	t.Helper()
	work := t.TempDir()
	dir = filepath.Join(work, "tree")
	for _, p := range []string{"a/x", "b", "odd\tname"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(30 * time.Millisecond)
	snap = filepath.Join(work, "snap")
	var out, errb bytes.Buffer
	if code := run([]string{"snap", dir, "-o", snap}, &out, &errb); code != 0 {
		t.Fatalf("snap: exit %d: %s", code, errb.String())
	}
	return dir, snap
}

func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestDiffExitStatus: 0 when nothing changed, 1 when something did, 2 on
// trouble, as diff(1).
func TestDiffExitStatus(t *testing.T) {
	dir, snap := snapTree(t)
	if out, errs, code := runCmd(t, "diff", snap); code != 0 || out != "" {
		t.Errorf("untouched: exit %d, output %q %s", code, out, errs)
	}
	os.WriteFile(filepath.Join(dir, "new"), nil, 0o644)
	if out, _, code := runCmd(t, "diff", snap, dir); code != 1 || out != "A new\n" {
		t.Errorf("one added: exit %d, output %q", code, out)
	}
	if _, errs, code := runCmd(t, "diff", filepath.Join(dir, "b")); code != 2 || !strings.Contains(errs, "not a snapshot") {
		t.Errorf("not a snapshot: exit %d, stderr %q", code, errs)
	}
	if _, _, code := runCmd(t, "diff", snap, "--no-such-flag"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
	if _, _, code := runCmd(t, "diff"); code != 2 {
		t.Errorf("no operand: exit %d", code)
	}
	if _, _, code := runCmd(t, "snap", dir); code != 2 {
		t.Errorf("snap without -o: exit %d", code)
	}
}

// TestDiffFormats: plain lines quote unusual names as git does, -0 ends
// each raw name with a NUL (a move gives the new path, then the old),
// --json writes one object a line.
func TestDiffFormats(t *testing.T) {
	dir, snap := snapTree(t)
	os.Rename(filepath.Join(dir, "a/x"), filepath.Join(dir, "a/y"))
	os.Remove(filepath.Join(dir, "odd\tname"))
	out, _, code := runCmd(t, "diff", snap)
	if want := "R a/x -> a/y\nD \"odd\\tname\"\n"; code != 1 || out != want {
		t.Errorf("plain: exit %d, got %q, want %q", code, out, want)
	}
	out, _, _ = runCmd(t, "diff", "-0", snap)
	if want := "R a/y\x00a/x\x00D odd\tname\x00"; out != want {
		t.Errorf("-0: got %q, want %q", out, want)
	}
	out, _, _ = runCmd(t, "diff", "--json", snap)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("--json: %d lines: %s", len(lines), out)
	}
	var c jsonChange
	if err := json.Unmarshal([]byte(lines[0]), &c); err != nil {
		t.Fatal(err)
	}
	if c.Kind != "R" || c.Path != "a/y" || c.OldPath != "a/x" || c.Old == nil || c.New == nil || c.Old.Inode != c.New.Inode {
		t.Errorf("--json move: %+v", c)
	}
}

// TestDiffTwoSnapshots: a second snapshot as the operand compares the two.
func TestDiffTwoSnapshots(t *testing.T) {
	dir, snap := snapTree(t)
	os.Chmod(filepath.Join(dir, "b"), 0o600)
	later := filepath.Join(t.TempDir(), "later")
	if _, errs, code := runCmd(t, "snap", "--hash", dir, "-o", later); code != 0 {
		t.Fatalf("snap: %d %s", code, errs)
	}
	if out, _, code := runCmd(t, "diff", "--ignore-ctime", snap, later); code != 1 || out != "m b\n" {
		t.Errorf("exit %d, got %q", code, out)
	}
	if out, _, code := runCmd(t, "diff", "--exclude", "b", snap, later); code != 0 || out != "" {
		t.Errorf("excluded: exit %d, got %q", code, out)
	}
}

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		"plain/name.go": "plain/name.go",
		"tab\there":     `"tab\there"`,
		"quote\"s":      `"quote\"s"`,
		"back\\slash":   `"back\\slash"`,
		"caf\xc3\xa9":   `"caf\303\251"`,
		"bad\xff":       `"bad\377"`,
		"bell\a":        `"bell\a"`,
		"esc\x1b":       `"esc\033"`,
	} {
		if got := quotePath(in); got != want {
			t.Errorf("quotePath(%q) = %s, want %s", in, got, want)
		}
	}
}
