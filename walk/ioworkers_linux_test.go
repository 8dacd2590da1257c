package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// slowFirst is a DirFunc that takes coldBase and more on its first slow
// visits, as listings read from a disk do, and no time after; it records
// how many calls ran at once.
type slowFirst struct {
	slow          int32
	calls, at, hi atomic.Int32
}

func (s *slowFirst) fn(d *Dir) error {
	now := s.at.Add(1)
	defer s.at.Add(-1)
	for {
		hi := s.hi.Load()
		if now <= hi || s.hi.CompareAndSwap(hi, now) {
			break
		}
	}
	if s.calls.Add(1) <= s.slow {
		time.Sleep(5 * coldBase)
	}
	return nil
}

// needFilesForExtra skips a test that needs extra workers running when
// the process may not open enough files for them (a shell's ulimit -n 16:
// the walk then runs none, by design; TestIOWorkersLowFileLimit is the
// test for that).
func needFilesForExtra(t *testing.T) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < 256 {
		t.Skipf("RLIMIT_NOFILE is %d: too few descriptors for extra workers", lim.Cur)
	}
}

// settled waits for the walk's goroutines to be gone: at most n left.
func settled(t *testing.T, n int) {
	t.Helper()
	for range 200 {
		if runtime.NumGoroutine() <= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("%d goroutines after the walk, %d before", runtime.NumGoroutine(), n)
}

// TestIOWorkers: slow visits start extra workers, up to IOWorkers, and
// fast ones end them; the walk sees what a walk without them sees and
// leaves no descriptor or goroutine behind.
func TestIOWorkers(t *testing.T) {
	needFilesForExtra(t)
	root := bushyTree(t, 8)
	want := countTree(t, root, &Options{Workers: 2, StatAll: true})
	for _, opts := range []Options{
		{Workers: 2, IOWorkers: 6, StatAll: true},
		{Workers: 2, IOWorkers: 6, StatAll: true, Batches: true, Reuse: true},
		{Workers: 1, IOWorkers: 3},
	} {
		t.Run(fmt.Sprintf("workers=%d,batches=%v", opts.Workers, opts.Batches), func(t *testing.T) {
			fds, goroutines := openFDs(t), runtime.NumGoroutine()
			s := &slowFirst{slow: 60}
			var dirs atomic.Int32
			err := Dirs(context.Background(), root, &opts, func(d *Dir) error {
				if d.Batch == 0 {
					dirs.Add(1)
				}
				return s.fn(d)
			})
			must(t, err)
			hi := int(s.hi.Load())
			if hi <= opts.Workers || hi > opts.Workers+opts.IOWorkers {
				t.Errorf("at most %d calls at once; want more than %d, at most %d", hi, opts.Workers, opts.Workers+opts.IOWorkers)
			}
			if got := countTree(t, root, &opts); got != want && opts.StatAll {
				t.Errorf("with IOWorkers: %s; without: %s", got, want)
			}
			settled(t, goroutines)
			if after := openFDs(t); after != fds {
				t.Errorf("%d descriptors open after the walk, %d before", after, fds)
			}
		})
	}
}

// TestIOWorkersEarlyStop stops walks with extra workers running, in each
// way a walk stops, and counts descriptors and goroutines after.
func TestIOWorkersEarlyStop(t *testing.T) {
	needFilesForExtra(t)
	root := bushyTree(t, 8)
	stops := map[string]func(ctx context.Context, cancel func(), n int32) error{
		"error":   func(context.Context, func(), int32) error { return errors.New("enough") },
		"SkipAll": func(context.Context, func(), int32) error { return fs.SkipAll },
		"Goexit": func(context.Context, func(), int32) error {
			runtime.Goexit()
			return nil
		},
		"cancel": func(_ context.Context, cancel func(), _ int32) error {
			cancel()
			return nil
		},
		"panic": func(context.Context, func(), int32) error { panic("boom") },
	}
	for name, stop := range stops {
		t.Run(name, func(t *testing.T) {
			fds, goroutines := openFDs(t), runtime.NumGoroutine()
			for range 5 {
				ctx, cancel := context.WithCancel(context.Background())
				s := &slowFirst{slow: 1 << 30}
				done := make(chan struct{})
				last := -1
				tell := func(n int) { last = n }
				go func() { // a Goexit ends this goroutine, not the test's
					defer close(done)
					defer func() { recover() }()
					Dirs(ctx, root, &Options{Workers: 2, IOWorkers: 8, StatAll: true, OnIOWorkers: tell}, func(d *Dir) error {
						s.fn(d)
						if n := s.calls.Load(); n == 40 {
							return stop(ctx, cancel, n)
						}
						return nil
					})
				}()
				<-done
				cancel()
				if s.hi.Load() <= 2 {
					t.Errorf("no extra worker was running (at most %d calls at once)", s.hi.Load())
				}
				if last != 0 {
					t.Errorf("OnIOWorkers was last told %d, want 0", last)
				}
			}
			settled(t, goroutines)
			if after := openFDs(t); after != fds {
				t.Errorf("%d descriptors open after 5 stopped walks, %d before", after, fds)
			}
		})
	}
}

// TestIOWorkersLowFileLimit: under RLIMIT_NOFILE 16 the extra workers fit
// in what is left, and the walk sees everything.
func TestIOWorkersLowFileLimit(t *testing.T) {
	root := bushyTree(t, 6)
	want := countTree(t, root, &Options{StatAll: true})
	testfs.LimitOpenFiles(t, 16)
	s := &slowFirst{slow: 1 << 30}
	opts := &Options{Workers: 2, IOWorkers: 30, StatAll: true}
	must(t, Dirs(context.Background(), root, opts, s.fn))
	if got := countTree(t, root, opts); got != want {
		t.Errorf("RLIMIT_NOFILE 16: %s; want %s", got, want)
	}
}

// TestFastStatsWalk: a walk whose workers' stats may bypass the scheduler
// (frd's FastStats) sees what a plain walk sees.
func TestFastStatsWalk(t *testing.T) {
	root := bushyTree(t, 6)
	for _, o := range []Options{{StatAll: true}, {StatAll: true, SplitDirSize: 1}, {StatAll: true, Batches: true}} {
		want := countTree(t, root, &o)
		o.FastStats = true
		if got := countTree(t, root, &o); got != want {
			t.Errorf("FastStats: %s; without: %s", got, want)
		}
	}
}

// TestOnIOWorkers: the hook is told the count of extra workers as they
// start and end, one call at a time, within the budget, ending with 0.
func TestOnIOWorkers(t *testing.T) {
	needFilesForExtra(t)
	root := bushyTree(t, 8)
	var at, hi atomic.Int32
	var counts []int
	s := &slowFirst{slow: 60}
	opts := &Options{Workers: 2, IOWorkers: 6, StatAll: true, OnIOWorkers: func(n int) {
		if at.Add(1) > 1 {
			t.Error("two calls of OnIOWorkers at once")
		}
		counts = append(counts, n)
		hi.Store(max(hi.Load(), int32(n)))
		at.Add(-1)
	}}
	fds, goroutines := openFDs(t), runtime.NumGoroutine()
	must(t, Dirs(context.Background(), root, opts, s.fn))
	if len(counts) == 0 || counts[len(counts)-1] != 0 {
		t.Fatalf("counts %v: want some, the last 0", counts)
	}
	for i, n := range counts {
		if n < 0 || n > 6 || i > 0 && n == counts[i-1] {
			t.Errorf("counts %v: each within 0 to 6, and a change", counts)
			break
		}
	}
	if hi.Load() == 0 {
		t.Errorf("counts %v: no extra worker told", counts)
	}
	settled(t, goroutines)
	if after := openFDs(t); after != fds {
		t.Errorf("%d descriptors open after the walk, %d before", after, fds)
	}
}

// TestOnIOWorkersPanics: a panic or Goexit in the hook ends the walk, is
// raised again by Dirs, and leaves no goroutine or descriptor behind.
func TestOnIOWorkersPanics(t *testing.T) {
	needFilesForExtra(t)
	root := bushyTree(t, 8)
	for _, how := range []string{"panic", "Goexit"} {
		t.Run(how, func(t *testing.T) {
			fds, goroutines := openFDs(t), runtime.NumGoroutine()
			var got any
			exited := true
			done := make(chan struct{})
			go func() {
				defer close(done)
				defer func() { got = recover() }()
				s := &slowFirst{slow: 1 << 30}
				Dirs(context.Background(), root, &Options{Workers: 2, IOWorkers: 6, StatAll: true, OnIOWorkers: func(n int) {
					if how == "panic" {
						panic("hook")
					}
					runtime.Goexit()
				}}, s.fn)
				exited = false
			}()
			<-done
			if how == "panic" && got != "hook" || how == "Goexit" && (got != nil || !exited) {
				t.Errorf("Dirs after a %s in OnIOWorkers: recovered %v, returned %v", how, got, !exited)
			}
			settled(t, goroutines)
			if after := openFDs(t); after != fds {
				t.Errorf("%d descriptors open after the walk, %d before", after, fds)
			}
		})
	}
}
