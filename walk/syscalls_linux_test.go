package walk

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// A walk down a chain of directories must cost a bounded number of system
// calls per level: one that finds each directory again from the root
// costs d²/2 opens for a chain d levels deep, which another user can make
// as deep as they like in a tree root walks.

// syscallChildEnv names the chain a test binary run under strace walks,
// and syscallOptsEnv the options, as one of syscallOpts' keys.
const (
	syscallChildEnv = "WALK_SYSCALLS_CHILD"
	syscallOptsEnv  = "WALK_SYSCALLS_OPTS"
)

var syscallOpts = map[string]Options{
	"moves":            {Workers: 2, DetectMoves: true},
	"moves-one-worker": {Workers: 1, DetectMoves: true},
	"moves-post-reuse": {Workers: 2, DetectMoves: true, Reuse: true, Batches: true, Post: func(*Dir) error { return nil }},
	"moves-few-kept":   {Workers: 2, DetectMoves: true, MaxOpenDirs: 2},
	// Sorted, "a" before "leaf": the chain first, every sibling left
	// waiting, and more levels than descriptors kept (16: the default
	// under RLIMIT_NOFILE 64).
	"chain-first":       {Workers: 1, MaxOpenDirs: 2, Sorted: true},
	"chain-first-two":   {Workers: 2, MaxOpenDirs: 16, Sorted: true},
	"chain-first-four":  {Workers: 4, MaxOpenDirs: 16, Sorted: true},
	"moves-chain-first": {Workers: 2, MaxOpenDirs: 16, Sorted: true, DetectMoves: true},
}

// syscallFns holds the DirFuncs of the options that need one of their
// own, made afresh in the child.
var syscallFns = map[string]func() DirFunc{}

// walkSyscallsChild is the walk the strace'd child runs.
func walkSyscallsChild() {
	root := os.Getenv(syscallChildEnv)
	opts := syscallOpts[os.Getenv(syscallOptsEnv)]
	var errs []string
	opts.OnError = func(e *Error) error {
		errs = append(errs, e.Error())
		return nil
	}
	fn := func(*Dir) error { return nil }
	if mk := syscallFns[os.Getenv(syscallOptsEnv)]; mk != nil {
		fn = mk()
	}
	// The failed accesses of names that exist nowhere mark the walk's
	// calls off from the runtime's and the test binary's (traceSyscalls).
	unix.Access(traceBegin, unix.F_OK)
	err := Dirs(context.Background(), root, &opts, fn)
	unix.Access(traceEnd, unix.F_OK)
	fmt.Println("walked:", err, errs)
}

// countSyscalls runs the walk of root with the options named under
// strace -c and returns the calls it made of each kind.
func countSyscalls(t *testing.T, root, opts string) map[string]int {
	t.Helper()
	return testfs.CountCalls(strace(t, root, opts, "-c", "-e", "trace=openat,fstat,newfstatat,statx,close"))
}

// strace runs the walk of root with the options syscallOpts names in the
// test binary run again under strace with the flags given, and returns
// what strace wrote.
func strace(t *testing.T, root, opts string, flags ...string) []byte {
	t.Helper()
	trace, out := testfs.Strace(t, []string{syscallChildEnv + "=" + root, syscallOptsEnv + "=" + opts}, flags...)
	if !strings.Contains(string(out), "walked: <nil> []") {
		t.Fatalf("the walk under strace did not end well: %s", out)
	}
	return trace
}

// TestDeepChainSyscalls walks a chain 600 levels deep (with a sibling at
// every level, which keeps its parent waiting) with the options that make
// a walk find directories again: moves detected (a stat of each directory
// in its parent once its subtree is done) and few descriptors kept. Each
// must cost a few calls a directory, not one a level above it.
func TestDeepChainSyscalls(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: strace'd walks of a deep chain")
	}
	const levels = 600
	root := t.TempDir()
	mkChain(t, root, "a", levels, true)
	dirs := 2*levels + 1
	for _, name := range []string{"moves", "moves-one-worker", "moves-post-reuse", "moves-few-kept", "chain-first", "chain-first-two", "chain-first-four", "moves-chain-first"} {
		c := countSyscalls(t, root, name)
		opens, stats := c["openat"], c["fstat"]+c["newfstatat"]+c["statx"]
		t.Logf("%s: %d opens, %d stats for %d directories", name, opens, stats, dirs)
		if opens > 4*dirs || stats > 6*dirs {
			t.Errorf("%s: %d opens and %d stats to walk %d directories; want at most %d and %d", name, opens, stats, dirs, 4*dirs, 6*dirs)
		}
	}
}

// TestDeepEntriesCostNoPathEach: 20,000 symbolic links at the bottom of a
// chain 200 levels deep of 255-byte names (paths of 51 KB), walked with
// StatAll (a stat of each) and with FollowSymlinks (a look at what each
// leads to). A path built for each link, whether or not an error needs
// it, costs a gigabyte; the walk's own paths, a level each, 5 MB.
func TestDeepEntriesCostNoPathEach(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: makes 20,000 links")
	}
	const levels, links = 200, 20000
	root := t.TempDir()
	mkChain(t, root, strings.Repeat("n", 255), levels, false)
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	must(t, err)
	for range levels {
		next, err := unix.Openat(fd, strings.Repeat("n", 255), unix.O_RDONLY|unix.O_DIRECTORY, 0)
		must(t, err)
		unix.Close(fd)
		fd = next
	}
	// Half lead nowhere, half to a file: neither is walked, nor an
	// error.
	f, err := unix.Openat(fd, "f", unix.O_CREAT|unix.O_WRONLY, 0o644)
	must(t, err)
	unix.Close(f)
	for i := range links {
		target := "nowhere"
		if i%2 == 0 {
			target = "f"
		}
		must(t, unix.Symlinkat(target, fd, fmt.Sprint("l", i)))
	}
	unix.Close(fd)
	for _, opts := range []Options{{StatAll: true, Workers: 2}, {FollowSymlinks: true, Workers: 2}} {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		seen := 0
		o := opts
		must(t, Dirs(context.Background(), root, &o, func(d *Dir) error {
			if d.Depth == levels {
				seen = len(d.Entries)
			}
			return nil
		}))
		runtime.ReadMemStats(&ms)
		alloc := ms.TotalAlloc - before
		t.Logf("StatAll %v, FollowSymlinks %v: %d entries at the bottom, %d bytes allocated", opts.StatAll, opts.FollowSymlinks, seen, alloc)
		if seen != links+2 || alloc > 64<<20 {
			t.Errorf("StatAll %v, FollowSymlinks %v: %d entries, %d bytes allocated; want %d, at most 64 MB", opts.StatAll, opts.FollowSymlinks, seen, alloc, links+2)
		}
	}
}
