package snapshot

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// tortureFS mounts each file system the torture runs on, skipping where
// it cannot be had; window is how long a change takes to leave the racy
// window there.
// noCtime marks FAT and exFAT: no change time and no lasting inode
// numbers (through FUSE), so that a rewrite or a file replaced, keeping
// size and modification time or setting it back, is seen only with
// hashes (and fusefat keeps no modification time of a rewrite at all).
var tortureFS = []struct {
	name    string
	mount   func(t *testing.T) string
	window  time.Duration
	noCtime bool
}{
	{"tmpfs", func(t *testing.T) string { d := t.TempDir(); testfs.MountTmpfs(t, d); return d }, 50 * time.Millisecond, false},
	{"ext4", func(t *testing.T) string { return testfs.LoopMount(t, "ext4") }, 50 * time.Millisecond, false},
	{"xfs", func(t *testing.T) string { return testfs.LoopMount(t, "xfs") }, 50 * time.Millisecond, false},
	{"btrfs", func(t *testing.T) string { return testfs.LoopMount(t, "btrfs") }, 50 * time.Millisecond, false},
	{"vfat", func(t *testing.T) string { return testfs.FATMount(t, "vfat") }, 2100 * time.Millisecond, true},
	{"exfat", func(t *testing.T) string { return testfs.FATMount(t, "exfat") }, 2100 * time.Millisecond, true},
}

// mutation is one change the torture makes after the snapshot, with the
// paths a compare must report for it. It returns false when the file
// system refuses it (FAT has no owners, links or permissions to speak of).
type mutation struct {
	name string
	do   func(t *testing.T, dir string) bool
	want []string
}

// tortureBase is the tree before the snapshot: a directory per mutation,
// and one that nothing touches.
var tortureBase = []string{
	"rewrite/f", "touchback/f", "chmod/f", "chown/f", "renamein/a", "across1/f", "across2/",
	"replaced/f", "hardlink/f", "symlink/target-aaa", "symlink/target-bbb", "symlink/l -> target-aaa",
	"dirfile/sub/inner", "addremove/old", "untouched/deep/f", "untouched/g",
}

func tortureMutations() []mutation {
	return []mutation{
		{"same-size rewrite, same tick", nil, []string{"rewrite/f"}}, // done right after Take
		{"touch -d back", func(t *testing.T, d string) bool {
			p := filepath.Join(d, "touchback/f")
			st := lstat(t, p)
			write(t, p, strings.Repeat("X", int(st.Size())))
			return os.Chtimes(p, st.ModTime(), st.ModTime()) == nil
		}, []string{"touchback/f"}},
		{"chmod", func(t *testing.T, d string) bool {
			p := filepath.Join(d, "chmod/f")
			before := lstat(t, p).Mode()
			return os.Chmod(p, 0o600) == nil && lstat(t, p).Mode() != before
		}, []string{"chmod/f"}},
		{"chown", func(t *testing.T, d string) bool {
			return os.Lchown(filepath.Join(d, "chown/f"), 65534, 65534) == nil
		}, []string{"chown/f"}},
		{"rename within a directory", func(t *testing.T, d string) bool {
			return os.Rename(filepath.Join(d, "renamein/a"), filepath.Join(d, "renamein/b")) == nil
		}, []string{"renamein/a", "renamein/b"}},
		{"rename across directories", func(t *testing.T, d string) bool {
			return os.Rename(filepath.Join(d, "across1/f"), filepath.Join(d, "across2/f")) == nil
		}, []string{"across1/f", "across2/f"}},
		{"replaced by one of the same name, size and mtime", func(t *testing.T, d string) bool {
			p := filepath.Join(d, "replaced/f")
			st := lstat(t, p)
			data, _ := os.ReadFile(p)
			os.Remove(p)
			write(t, p, strings.ToUpper(string(data)))
			return os.Chtimes(p, st.ModTime(), st.ModTime()) == nil
		}, []string{"replaced/f"}},
		{"hard link added", func(t *testing.T, d string) bool {
			return os.Link(filepath.Join(d, "hardlink/f"), filepath.Join(d, "hardlink/g")) == nil
		}, []string{"hardlink/f", "hardlink/g"}},
		{"symlink retargeted, same length", func(t *testing.T, d string) bool {
			p := filepath.Join(d, "symlink/l")
			if _, err := os.Lstat(p); err != nil {
				return false // no links here
			}
			return os.Remove(p) == nil && os.Symlink("target-bbb", p) == nil
		}, []string{"symlink/l"}},
		{"directory replaced by a file", func(t *testing.T, d string) bool {
			os.RemoveAll(filepath.Join(d, "dirfile/sub"))
			write(t, filepath.Join(d, "dirfile/sub"), "now a file")
			return true
		}, []string{"dirfile/sub", "dirfile/sub/inner"}},
		{"added and removed, directory mtime restored", func(t *testing.T, d string) bool {
			dir := filepath.Join(d, "addremove")
			st := lstat(t, dir)
			write(t, filepath.Join(dir, "new"), "new")
			os.Remove(filepath.Join(dir, "old"))
			return os.Chtimes(dir, st.ModTime(), st.ModTime()) == nil
		}, []string{"addremove/new", "addremove/old"}},
	}
}

func lstat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTorture makes each change of tortureMutations after a snapshot, on
// each file system, and checks that a compare reports every path each
// change touched and nothing else (the racy rewrite as possibly changed,
// or as modified once hashed), and that a later untouched tree reports
// nothing.
func TestTorture(t *testing.T) {
	for _, fs := range tortureFS {
		for _, hash := range []bool{false, true} {
			name := fs.name
			if hash {
				name += "/hash"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel() // mostly waiting out racy windows
				dir := fs.mount(t)
				var maySkip []string
				if fs.noCtime && !hash {
					maySkip = []string{"rewrite/f", "touchback/f", "replaced/f"}
				}
				torture(t, dir, fs.window, hash, maySkip)
			})
		}
	}
}

// torture runs the mutations on dir; a path in maySkip may or may not be
// reported (the rewrites a file system without change times hides from a
// compare without hashes).
func torture(t *testing.T, dir string, window time.Duration, hash bool, maySkip []string) {
	for _, s := range tortureBase {
		if name, target, ok := strings.Cut(s, " -> "); ok {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil && !isRefused(err) {
				t.Fatal(err)
			}
			continue
		}
		build(t, dir, s)
	}
	time.Sleep(window)
	rewrite := filepath.Join(dir, "rewrite/f")
	write(t, rewrite, "before!") // racy: in the tick of the snapshot
	opts := &Options{}
	if hash {
		opts.Hash = HashRacy
	}
	snap := take(t, dir, opts)
	write(t, rewrite, "after!!") // the same size, likely the same tick
	var want []string
	for _, m := range tortureMutations() {
		if m.do == nil || m.do(t, dir) {
			want = append(want, m.want...)
		}
	}
	got := changes(t, snap, dir, &CompareOptions{Hash: hash})
	checkReported(t, got, want, maySkip)
	for _, c := range got {
		if strings.HasSuffix(c, " rewrite/f") && hash && c[0] != 'M' {
			t.Errorf("with a hash the racy rewrite is %q, want M", c)
		}
	}
	// The same changes between two snapshots.
	time.Sleep(window)
	later := take(t, dir, opts)
	var between []string
	err := CompareSnapshots(context.Background(), bytes.NewReader(snap), bytes.NewReader(later), &CompareOptions{Hash: hash}, func(c *Change) error {
		between = append(between, line(c))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReported(t, between, want, maySkip)
	// Untouched since a snapshot taken outside the window: nothing.
	time.Sleep(window)
	equalLines(t, "an untouched tree", changes(t, later, dir, nil), nil)
}

// checkReported checks that every path in want but those in maySkip is
// named by a change, and no path outside want is.
func checkReported(t *testing.T, got, want, maySkip []string) {
	t.Helper()
	named := map[string]bool{}
	for _, c := range got {
		rest := c[2:]
		if old, cur, ok := strings.Cut(rest, " -> "); ok {
			named[old], named[cur] = true, true
		} else {
			named[rest] = true
		}
	}
	for _, p := range want {
		if !named[p] && !slices.Contains(maySkip, p) {
			t.Errorf("missed: %s (reported:\n  %s)", p, strings.Join(got, "\n  "))
		}
		delete(named, p)
	}
	for p := range named {
		if !slices.Contains(want, p) {
			t.Errorf("reported without a change: %s (reported:\n  %s)", p, strings.Join(got, "\n  "))
		}
	}
}

// isRefused reports a file system's refusal of an operation it lacks.
func isRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.ENOSYS)
}
