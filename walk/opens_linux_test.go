package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The child's walk is marked off in its trace by a failed access of each
// of these names; traceMark, made by a DirFunc, ends the count early.
const (
	traceBegin = "/walk-trace-begin-f7a1"
	traceEnd   = "/walk-trace-end-f7a1"
	traceMark  = "/walk-trace-mark-f7a1"
)

// walkCalls are the system calls of one walk, by kind.
type walkCalls struct {
	opens   int // openat of a name: a directory opened down
	ups     int // openat of "..": a directory found going up
	fstats  int // fstat of a descriptor: a directory entered, an open or a step up checked
	statats int // newfstatat of a name: a move checked, or a link's target
	statx   int // statx: a regular file's metadata
}

func (c walkCalls) String() string {
	return fmt.Sprintf("%d opens, %d ups, %d fstats, %d fstatats, %d statx", c.opens, c.ups, c.fstats, c.statats, c.statx)
}

var traceCall = regexp.MustCompile(`^(?:\[pid\s+)?(?:\d+\]?\s+)?(\w+)\((.*)`)

// traceSyscalls runs the walk of root with the options syscallOpts names
// in the test binary run again under strace, and counts the calls it made
// between the child's marks.
func traceSyscalls(t *testing.T, root, opts string) walkCalls {
	t.Helper()
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < 256 {
		t.Skipf("skipping: RLIMIT_NOFILE %d may keep fewer descriptors than the counts assume", lim.Cur)
	}
	trace := strace(t, root, opts, "-e", "trace=openat,fstat,newfstatat,statx,access,faccessat,faccessat2")
	var c walkCalls
	in, ended := false, false
lines:
	for _, line := range strings.Split(string(trace), "\n") {
		m := traceCall.FindStringSubmatch(line)
		if m == nil { // a call resumed, a signal, an exit: counted where it began
			continue
		}
		call, args := m[1], m[2]
		switch {
		case strings.Contains(args, traceBegin):
			in = true
			continue
		case strings.Contains(args, traceEnd), strings.Contains(args, traceMark):
			ended = true
			break lines
		case !in:
			continue
		}
		switch call {
		case "openat":
			if strings.Contains(args, `"/proc/self/fd"`) {
				continue // the plan's count of descriptors open
			}
			if strings.HasPrefix(strings.TrimLeft(args, "0123456789"), `, "..",`) {
				c.ups++
			} else {
				c.opens++
			}
		case "fstat":
			c.fstats++
		case "newfstatat":
			c.statats++
		case "statx":
			c.statx++
		}
	}
	if !in || !ended {
		t.Fatalf("the trace has no marks around the walk: %s", trace)
	}
	return c
}

func init() {
	for name, o := range map[string]Options{
		// Workers 1 and Sorted ("a" before "leaf"): every walk below is
		// the same on every run.
		"chain-few-kept":       {Workers: 1, Sorted: true, MaxOpenDirs: 2},
		"chain-few-kept-moves": {Workers: 1, Sorted: true, MaxOpenDirs: 2, DetectMoves: true},
		"chain-moves":          {Workers: 1, Sorted: true, MaxOpenDirs: 100, DetectMoves: true},
		"chain-none-kept":      {Workers: 1, Sorted: true, MaxOpenDirs: -1},
		"opened-siblings":      {Workers: 2, Sorted: true, MaxOpenDirs: 1},
	} {
		syscallOpts[name] = o
	}
	syscallFns["opened-siblings"] = openedSiblingsFn
}

// mkDirs makes each of paths, slash-separated, under root.
func mkDirs(t *testing.T, root string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		must(t, os.MkdirAll(filepath.Join(root, filepath.FromSlash(p)), 0o755))
	}
}

// TestChainWalkCalls counts the calls of one-worker walks of a chain 40
// levels deep with an empty "leaf" beside every "a" (81 directories, a
// file at the bottom), each of which leaves a parent waiting for its leaf
// while the walk goes on down. The counts are exact: a descriptor kept
// for the wrong directory, or not kept, costs opens or climbs, not a
// wrong listing.
func TestChainWalkCalls(t *testing.T) {
	const L = 40
	root := t.TempDir()
	mkChain(t, root, "a", L, true)
	dirs := 2*L + 1
	for _, c := range []struct {
		opts string
		want walkCalls
	}{
		// Each directory is opened once, from its parent kept (no check
		// of an identity not yet known). The two newest a's are kept;
		// leaf 40 and leaf 39 find theirs kept, and from leaf 38 up each
		// leaf's parent a(k-1) was evicted on the way down: finishing
		// leaf k+1 climbs "..", checked by an fstat, from a(k+1)'s
		// descriptor to a(k) and keeps it there, for a(1) to a(37),
		// never for the root, kept throughout. One statx: the file.
		{"chain-few-kept", walkCalls{opens: dirs, ups: L - 3, fstats: dirs + L - 3, statx: 1}},
		// The same, and a(1) to a(39) each checked in its parent once
		// done (a fstatat): the parent kept, or the climb's descriptor
		// going up, which then is the one kept.
		{"chain-few-kept-moves", walkCalls{opens: dirs, ups: L - 3, fstats: dirs + L - 3, statats: L - 1, statx: 1}},
		// Every directory kept: the moves checked in kept parents, and
		// no climb.
		{"chain-moves", walkCalls{opens: dirs, fstats: dirs, statats: L - 1, statx: 1}},
		// Nothing kept but the root: a(k) and leaf(k) are each found
		// again by names from the root, k opens, and the k-1 directories
		// on the way checked by an fstat. Finishing a(40) climbs a step
		// to a(39), leaf(k) two, to a(k-2), for k from 3 to 40, in vain:
		// there is no room to keep them.
		{"chain-none-kept", walkCalls{opens: 1 + L*(L+1), ups: 1 + 2*(L-2), fstats: dirs + L*(L-1) + 1 + 2*(L-2), statx: 1}},
	} {
		if got := traceSyscalls(t, root, c.opts); got != c.want {
			t.Errorf("%s: %v; want %v", c.opts, got, c.want)
		}
	}
}

// TestLongClimbKeepsWaitingDirectory: finishing the bottom of a chain of
// 70 single directories finishes the whole chain, and the directory above
// it still has "leaf" to open. How far finishing goes up before the
// waiting directory is looked for must not count against how far above
// that the look reaches (64 levels): the climb to it through ".." costs
// 68 steps, finding it again by names two opens, but then for every
// such chain.
func TestLongClimbKeepsWaitingDirectory(t *testing.T) {
	const L = 70
	root := t.TempDir()
	mkDirs(t, root, "top/leaf", "top/"+strings.Repeat("a/", L))
	// 73 directories, each opened once from its parent kept. Two kept:
	// a(68) and a(69) on the way down. Finishing a(70) takes a(69)'s and
	// a(68)'s descriptors as they finish, climbs from a(68) to a(1), 67
	// steps, and one more to top, kept for leaf.
	want := walkCalls{opens: L + 3, ups: L - 2, fstats: L + 3 + L - 2}
	if got := traceSyscalls(t, root, "chain-few-kept"); got != want {
		t.Errorf("%v; want %v", got, want)
	}
}

// openedSiblingsFn holds the two workers of the walk of
// TestWaitingAboveOpenedSiblings in place: one in y until the other
// reaches b, then that one in b until the first has finished c and
// reached z, where the trace ends.
func openedSiblingsFn() DirFunc {
	y, b, z := make(chan struct{}), make(chan struct{}), make(chan struct{})
	wait := func(c chan struct{}, name string) error {
		select {
		case <-c:
			return nil
		case <-time.After(10 * time.Second):
			return fmt.Errorf("%s not reached within 10 s", name)
		}
	}
	return func(d *Dir) error {
		switch d.Info.Name {
		case "p":
			return wait(y, "y")
		case "y":
			close(y)
			return wait(b, "b")
		case "b":
			close(b)
			return wait(z, "z")
		case "z":
			unix.Access(traceMark, unix.F_OK)
			close(z)
		}
		return nil
	}
}

// TestWaitingAboveOpenedSiblings: root/p/a…a/{b,c} with k levels of a,
// p/z and root/y, two workers, one descriptor kept. While one worker is
// held in b, the other finishes c: a(k) waits for b, but has nothing left
// to open, nor has any a above it; p has z. Within 64 levels of a(k), p's
// descriptor is found by climbing from c (k+1 steps) and kept for z, one
// open; beyond, z is found again by names from the root, two opens and a
// check of p.
func TestWaitingAboveOpenedSiblings(t *testing.T) {
	for _, c := range []struct {
		k    int
		want walkCalls
	}{
		// Opened before z: root, y, p, the a's, b, c; z from p kept.
		{1, walkCalls{opens: 1 + 6, ups: 2, fstats: 1 + 6 + 2}},
		// z from the root: p, checked, then z.
		{64, walkCalls{opens: 64 + 6 + 1, fstats: 64 + 6 + 1}},
	} {
		root := t.TempDir()
		mkDirs(t, root, "y", "p/z", "p/"+strings.Repeat("a/", c.k)+"b", "p/"+strings.Repeat("a/", c.k)+"c")
		if got := traceSyscalls(t, root, "opened-siblings"); got != c.want {
			t.Errorf("%d levels of a: %v; want %v", c.k, got, c.want)
		}
	}
}
