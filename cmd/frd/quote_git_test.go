//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuoteLikeGit: names are quoted as git status --porcelain quotes
// them, where git is installed.
func TestQuoteLikeGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("skipping: no git")
	}
	dir := t.TempDir()
	names := []string{"tab\there", "quote\"s", "back\\slash", "caf\xc3\xa9", "bad\xff", "nl\nx", "plain"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(git, "-c", "core.quotePath=true", "init", "-q", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipping: git init: %v: %s", err, out)
	}
	out, err := exec.Command(git, "-C", dir, "-c", "core.quotePath=true", "status", "--porcelain", "--untracked-files=all").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		got[strings.TrimPrefix(l, "?? ")] = true
	}
	for _, n := range names {
		if q := quotePath(n); !got[q] {
			t.Errorf("%q quoted as %s, git's lines: %q", n, q, out)
		}
	}
}
