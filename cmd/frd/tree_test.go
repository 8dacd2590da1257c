//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCloneAndChmodCommands(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	if err := os.MkdirAll(filepath.Join(src, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "d", "f"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d/f", filepath.Join(src, "l")); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"clone", "--method", "copy", src, filepath.Join(base, "dst")}, &out, &errb); code != 0 {
		t.Fatalf("clone: exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "copy: 2 directories, 1 files (4 bytes), 1 symbolic links") {
		t.Errorf("clone said %q", out.String())
	}
	if b, err := os.ReadFile(filepath.Join(base, "dst", "l")); err != nil || string(b) != "data" {
		t.Errorf("clone's link reads %q, %v", b, err)
	}
	out.Reset()
	if code := run([]string{"clone", src, filepath.Join(base, "dst")}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "file exists") {
		t.Errorf("clone onto an existing dst: exit %d, %q", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"chmod", "--files-readonly", filepath.Join(base, "dst")}, &out, &errb); code != 0 || out.String() != "1 files made read-only\n" {
		t.Errorf("chmod --files-readonly: exit %d, %q", code, out.String())
	}
	if fi, _ := os.Stat(filepath.Join(base, "dst", "d", "f")); fi.Mode().Perm() != 0o444 {
		t.Errorf("file mode %v", fi.Mode().Perm())
	}
	out.Reset()
	if code := run([]string{"chmod", "--dirs-writable", filepath.Join(base, "dst")}, &out, &errb); code != 0 || out.String() != "0 directories made writable\n" {
		t.Errorf("chmod --dirs-writable: exit %d, %q", code, out.String())
	}
	if code := run([]string{"chmod", "--files-readonly", "--dirs-writable", base}, &out, &errb); code != 2 {
		t.Errorf("both chmod flags: exit %d", code)
	}
	// A link given as DIR: refused, and what it leads to left alone.
	lnk := filepath.Join(base, "lnk")
	if err := os.Symlink("dst", lnk); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(base, "dst", "d", "f"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--files-readonly", "--dirs-writable"} {
		out.Reset()
		errb.Reset()
		if code := run([]string{"chmod", flag, lnk}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "symbolic link") {
			t.Errorf("chmod %s LINK: exit %d, %q", flag, code, errb.String())
		}
	}
	if fi, _ := os.Stat(filepath.Join(base, "dst", "d", "f")); fi.Mode().Perm() != 0o666 {
		t.Errorf("chmod through a link given as DIR: file mode %v", fi.Mode().Perm())
	}
}

// TestMessagesEscapeNames: a path in an error names what another user
// may have named, escapes and all: frd prints it escaped.
func TestMessagesEscapeNames(t *testing.T) {
	base := t.TempDir()
	lnk := filepath.Join(base, "X\x1b]2;PWN\x07\x1b[2J")
	if err := os.Symlink(base, lnk); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"chmod", "--files-readonly", lnk}, &out, &errb); code != 1 {
		t.Fatalf("chmod of a link: exit %d", code)
	}
	msg := errb.String()
	if strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `X\x1b]2;PWN\a\x1b[2J`) {
		t.Errorf("the message holds the name unescaped, or not at all: %q", msg)
	}
}
