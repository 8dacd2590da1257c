package snapshot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// take snapshots dir into memory.
func take(t testing.TB, dir string, opts *Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Take(context.Background(), dir, &buf, opts); err != nil {
		t.Fatalf("Take: %v", err)
	}
	return buf.Bytes()
}

// changes compares snap with dir and returns the changes as lines: the
// letter and the path, "R old -> new" for a move.
func changes(t testing.TB, snap []byte, dir string, opts *CompareOptions) []string {
	t.Helper()
	var out []string
	err := Compare(context.Background(), bytes.NewReader(snap), dir, opts, func(c *Change) error {
		out = append(out, line(c))
		return nil
	})
	if err != nil {
		t.Fatalf("Compare: %v", err)
	}
	return out
}

func line(c *Change) string {
	if c.Kind == Moved {
		return "R " + c.OldPath + " -> " + c.Path
	}
	return string(c.Kind) + " " + c.Path
}

// settle waits out the racy window of a snapshot taken now of a tree on
// a file system of nanosecond times.
func settle() { time.Sleep(30 * time.Millisecond) }

// build makes files under dir from "path" or "path/" (a directory) or
// "path -> target" (a link), in order.
func build(t testing.TB, dir string, specs ...string) {
	t.Helper()
	for _, s := range specs {
		p := filepath.Join(dir, s)
		switch {
		case strings.Contains(s, " -> "):
			name, target, _ := strings.Cut(s, " -> ")
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(s, "/"):
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("contents of "+s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func equalLines(t testing.TB, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
