package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// Another user can make a chain of directories as deep as they like in a
// tree root clones or seals. Each level must cost a few system calls,
// even with few descriptors kept: not one for every level above it.

// deepChildEnv, set to "what\x1fsrc\x1fdst", makes the test binary, run
// under strace, clone src to dst (what: "clone") or run a permission walk
// on src ("files", "dirs"), with two descriptors kept on each side, or
// remove src as a failed clone is ("remove").
const deepChildEnv = "TREE_DEEP_CHILD"

// deepChild is what the strace'd test binary runs.
func deepChild(args string) {
	a := strings.Split(args, "\x1f")
	var err error
	switch a[0] {
	case "clone":
		_, err = Clone(a[1], a[2], &Options{Method: Copy, Workers: 2, MaxOpenDirs: 2})
	case "files":
		_, err = FilesReadOnly(a[1], 2)
	case "dirs":
		_, err = DirsWritable(a[1], 2)
	case "remove":
		err = removeTree(unix.AT_FDCWD, a[1], a[1])
	}
	fmt.Println("done:", err)
}

// deepChain makes a chain levels deep under root, each level holding a
// file and a leaf directory, and returns its bottom.
func deepChain(t *testing.T, root string, levels int) {
	t.Helper()
	unix.Close(testfs.Chain(t, root, "a", levels, []string{"leaf"}, []string{"f"}))
}

// straceCounts runs the test binary with env under strace -c and returns
// its calls of each kind.
func straceCounts(t *testing.T, env string) map[string]int {
	t.Helper()
	table, out := testfs.Strace(t, []string{env}, "-c", "-e", "trace=openat,fstat,newfstatat,statx")
	if !strings.Contains(string(out), "done: <nil>") {
		t.Fatalf("the run under strace did not end well: %s", out)
	}
	return testfs.CountCalls(table)
}

// TestDeepChainSyscalls clones and seals a chain 600 levels deep (a leaf
// directory and a file at each level) keeping two descriptors a side: a
// clone whose destination directories were found again from the top for
// their metadata made 90,000 opens.
func TestDeepChainSyscalls(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: strace'd clones of a deep chain")
	}
	const levels = 600
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	deepChain(t, src, levels)
	dirs := 2*levels + 1
	for _, what := range []string{"clone", "files", "dirs"} {
		dst := filepath.Join(t.TempDir(), "dst")
		c := straceCounts(t, deepChildEnv+"="+what+"\x1f"+src+"\x1f"+dst)
		opens := c["openat"]
		t.Logf("%s: %d opens, %d stats for %d directories and %d files", what, opens, c["fstat"]+c["newfstatat"]+c["statx"], dirs, levels)
		// A clone opens each directory on both sides and each file on
		// both; a permission walk each directory, and each file to seal.
		// Which directories two workers keep depends on how they are
		// scheduled (a loaded machine: 9 opens an item); one found again
		// from the top costs hundreds.
		if most := 16 * (dirs + levels); opens > most {
			t.Errorf("%s: %d opens for %d directories and %d files; want at most %d", what, opens, dirs, levels, most)
		}
	}
}

// TestDeepFilesCostNoPathEach clones 5,000 files at the bottom of a chain
// 200 levels deep of 255-byte names (paths of 51 KB): a destination path
// built for each file, whether or not an error needs it, costs half a
// gigabyte; the walk's own paths, a level each, 10 MB.
func TestDeepFilesCostNoPathEach(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: makes 5,000 files")
	}
	const levels, files = 200, 5000
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	name := strings.Repeat("n", 255)
	fd, err := unix.Open(src, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	must(t, err)
	for range levels {
		must(t, unix.Mkdirat(fd, name, 0o755))
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		must(t, err)
		unix.Close(fd)
		fd = next
	}
	for i := range files {
		f, err := unix.Openat(fd, fmt.Sprint("f", i), unix.O_CREAT|unix.O_WRONLY, 0o644)
		must(t, err)
		unix.Close(f)
	}
	unix.Close(fd)
	for _, m := range []Method{Copy, Hardlink} {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		res, err := Clone(src, filepath.Join(t.TempDir(), "dst"), &Options{Method: m, Workers: 2})
		must(t, err)
		runtime.ReadMemStats(&ms)
		alloc := ms.TotalAlloc - before
		t.Logf("%s: %d files, %d bytes allocated", m, res.Files, alloc)
		if res.Files != files || alloc > 64<<20 {
			t.Errorf("%s: %d files, %d bytes allocated; want %d, at most 64 MB", m, res.Files, alloc, files)
		}
	}
}
