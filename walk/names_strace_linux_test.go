package walk

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestNamesMakesNoStatCall counts, with strace, the stat system calls of
// a names-only walk (the test binary run again under it): past a
// directory large enough to be split and in the ones after, none. Each
// directory's own fstat of its descriptor is not a file's stat, and is
// left out of the count.
func TestNamesMakesNoStatCall(t *testing.T) {
	if dir := os.Getenv("WALK_NAMES_CHILD"); dir != "" {
		var n int
		err := Dirs(context.Background(), dir, &Options{Names: true, Workers: 4}, func(d *Dir) error {
			n += len(d.Entries)
			return nil
		})
		fmt.Println("entries:", n, err)
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
	cmd := exec.Command(strace, "-f", "-c", "-e", "trace=statx,newfstatat,stat,lstat",
		os.Args[0], "-test.run", "^TestNamesMakesNoStatCall$")
	cmd.Env = append(os.Environ(), "WALK_NAMES_CHILD="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !regexp.MustCompile(`entries: \d+ <nil>`).Match(out) {
		t.Fatalf("the walk under strace did not end well: %s", out)
	}
	// strace -c's table: "% time seconds usecs/call calls errors syscall".
	for _, m := range regexp.MustCompile(`(?m)^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(statx|newfstatat|stat|lstat)$`).FindAllSubmatch(out, -1) {
		if n, _ := strconv.Atoi(string(m[1])); n > 0 {
			t.Errorf("%s calls: %d; want none", m[2], n)
		}
	}
}
