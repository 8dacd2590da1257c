package du

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// liveNobodyEnv names the directory that the test binary, run again as
// nobody, reads live (TestLiveUnreadableDirHoldsNoWait).
const liveNobodyEnv = "FDU_DU_LIVE_NOBODY"

func TestMain(m *testing.M) {
	if dir := os.Getenv(liveNobodyEnv); dir != "" {
		fmt.Print(readRationed(dir, nil))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLiveUnreadableDirHoldsNoWait: a directory that cannot be opened is
// never visited, so nothing but onError tells the report it is over; if
// that did not, the report would wait for its parent's whole subtree,
// each of its directories a step of the rationed ones a wait gives (here
// forever, the pause after them made endless).
func TestLiveUnreadableDirHoldsNoWait(t *testing.T) {
	top := testfs.WorldDir(t)
	dir := filepath.Join(top, "p")
	mkFiles(t, dir, 40, 3)
	// Several, made last (listed first on tmpfs), so that one comes
	// before the most of the others in any listing order.
	for i := range 5 {
		c := filepath.Join(dir, fmt.Sprint("closed", i))
		if err := os.Mkdir(c, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(c, "f"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(c, 0o700); err != nil { // root's: nobody may not open it
			t.Fatal(err)
		}
		if os.Geteuid() != 0 {
			defer os.Chmod(c, 0o700)
			if err := os.Chmod(c, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got string
	if os.Geteuid() == 0 {
		res := testfs.RunAsNobodyResult(t, top, liveNobodyEnv+"="+dir)
		if res.Code != 0 {
			t.Fatalf("the helper run as nobody failed with status %d: %s%s", res.Code, res.Stdout, res.Stderr)
		}
		got = res.Stdout
	} else {
		got = readRationed(dir, nil)
	}
	if want := "read 120 files; 5 directories unreadable, 0 not reached"; strings.TrimSpace(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLiveVanishedDirHoldsNoWait: a directory removed between its
// parent's listing and its visit is left out without an error, so
// nothing but the walk's Skipped tells the report it is over; if that
// did not, the report would wait for its parent's whole subtree, each of
// its directories a step of the rationed ones (here forever).
func TestLiveVanishedDirHoldsNoWait(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "p")
	mkFiles(t, dir, 40, 3)
	var gone []string
	for i := range 5 { // several, as in TestLiveUnreadableDirHoldsNoWait
		gone = append(gone, filepath.Join(dir, fmt.Sprint("gone", i)))
		if err := os.Mkdir(gone[i], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The second listing is p's (top holds p alone): they go once it is
	// read, before the walk opens them.
	p := &removing{at: 2, paths: gone}
	got := readRationed(top, p)
	if p.err != nil {
		t.Fatal(p.err)
	}
	if want := "read 120 files; 0 directories unreadable, 5 not reached"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// removing is a Progress that removes paths at its at-th call.
type removing struct {
	mu    sync.Mutex
	calls int
	at    int
	paths []string
	err   error
}

func (r *removing) Listed(int, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls++; r.calls == r.at {
		for _, p := range r.paths {
			if err := os.Remove(p); err != nil && r.err == nil {
				r.err = err
			}
		}
	}
}

// readRationed reads dir's live scan as a report would, with a limit of
// 10 items held and no pause ending the rationing of steps, and says
// what it read, or that it still waits after a generous while.
func readRationed(dir string, progress Progress) string {
	defer func(n int, d time.Duration) { liveHeld, liveStale = n, d }(liveHeld, liveStale)
	liveHeld, liveStale = 10, time.Hour
	s := NewScanner(&Config{All: true, Jobs: 2}, progress)
	top, l := s.ScanLive(context.Background(), dir)
	defer l.Stop()
	files, unreadable, unreached := 0, 0, 0
	count := func(n *Dir) {
		switch n.State() {
		case Unreadable:
			unreadable++
		case Unreached:
			unreached++
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		files = readAsReport(l, dir, top, count)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a hang: nothing wakes the wait
		return "the report still waits for the walk"
	}
	if err := l.Wait(); err != nil {
		return err.Error()
	}
	return fmt.Sprintf("read %d files; %d directories unreadable, %d not reached", files, unreadable, unreached)
}
