package walk

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
)

// TestNamesMakesNoStatCall counts, with strace, the stat system calls of
// a names-only walk (the test binary run again under it): past a
// directory large enough to be split and in the ones after, none. Each
// directory's own fstat of its descriptor is not a file's stat, and is
// left out of the count.
func TestNamesMakesNoStatCall(t *testing.T) {
	if dir := os.Getenv("WALK_NAMES_CHILD"); dir != "" {
		var n atomic.Int64
		err := Dirs(context.Background(), dir, &Options{Names: true, Workers: 4}, func(d *Dir) error {
			n.Add(int64(len(d.Entries)))
			return nil
		})
		fmt.Println("entries:", n.Load(), err)
		return
	}
	if os.Getenv("FRD_EMULATED") != "" {
		t.Skip("skipping: runs the test binary again, which an emulated run (FRD_EMULATED) cannot")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("skipping: no strace (apt-get install strace)")
	}
	root := t.TempDir()
	for _, d := range []string{"big", "a", "b"} {
		must(t, os.Mkdir(filepath.Join(root, d), 0o755))
	}
	for i := range int(DefaultSplitDirSize/32) + 2000 {
		must(t, os.WriteFile(filepath.Join(root, "big", fmt.Sprintf("file-%06d", i)), nil, 0o644))
	}
	for _, d := range []string{"a", "b"} {
		for i := range 50 {
			must(t, os.WriteFile(filepath.Join(root, d, fmt.Sprint(i)), nil, 0o644))
		}
	}
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(strace, "-f", "-o", trace, "-e", "trace=statx,newfstatat,stat,lstat",
		os.Args[0], "-test.run", "^TestNamesMakesNoStatCall$")
	cmd.Env = append(os.Environ(), "WALK_NAMES_CHILD="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !regexp.MustCompile(`entries: \d+ <nil>`).Match(out) {
		t.Fatalf("the walk under strace did not end well: %s", out)
	}
	// The tree's files by name, relative to a directory or not; the
	// runtime's own calls (the race detector's) name other paths.
	b, err := os.ReadFile(trace)
	must(t, err)
	calls := regexp.MustCompile(`(?m)^\d+\s+(statx|newfstatat|stat|lstat)\((?:\d+|AT_FDCWD), "(?:[^"]*/)?(file-\d+|\d+)"`).FindAll(b, -1)
	if len(calls) > 0 {
		t.Errorf("%d stats of the tree's files, the first %s; want none", len(calls), calls[0])
	}
	if !regexp.MustCompile(`(?m)^\d+\s+`).Match(b) {
		t.Errorf("strace recorded nothing: %s", b)
	}
}
