package du

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// liveNobodyEnv names the directory that the test binary, run again as
// nobody, reads live (TestLiveUnreadableDirHoldsNoWait).
const liveNobodyEnv = "FDU_DU_LIVE_NOBODY"

func TestMain(m *testing.M) {
	if dir := os.Getenv(liveNobodyEnv); dir != "" {
		fmt.Print(readUnreadable(dir))
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
			t.Skipf("skipping: the helper run as nobody failed with status %d: %s%s", res.Code, res.Stdout, res.Stderr)
		}
		got = res.Stdout
	} else {
		got = readUnreadable(dir)
	}
	if want := "read 120 files, 5 directories unreadable"; strings.TrimSpace(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// readUnreadable reads dir's live scan as a report would, with a limit of
// 10 items held and no pause ending the rationing of steps, and says
// what it read, or that it still waits after a generous while.
func readUnreadable(dir string) string {
	liveHeld, liveStale = 10, time.Hour
	s := NewScanner(&Config{All: true, Jobs: 2}, nil)
	top, l := s.ScanLive(context.Background(), dir)
	files, unreadable := 0, 0
	var read func(n, parent *Dir)
	read = func(n, parent *Dir) {
		l.WaitListed(n, parent)
		if n.State() == Unreadable {
			unreadable++
		}
		items := n.InDuOrder(dir)
		for it := range items.All() {
			if c := it.Sub(); c != nil {
				read(c, n)
				l.Release(c)
			} else {
				files++
			}
		}
		l.WaitDone(n, parent)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		read(top, nil)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a hang: nothing wakes the wait
		return "the report still waits for the walk"
	}
	if err := l.Wait(); err != nil {
		return err.Error()
	}
	return fmt.Sprintf("read %d files, %d directories unreadable", files, unreadable)
}
