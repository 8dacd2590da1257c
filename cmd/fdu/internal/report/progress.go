package report

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// Progress counts what the walk has seen, and shows it on a terminal's
// stderr once a scan has run for a second: one line, redrawn in place and
// erased at the end, never on stdout.
type Progress struct {
	dirs, entries, bytes atomic.Uint64

	out  io.Writer
	unit units.BlockSize
	stop chan struct{}
	once sync.Once // Finish may be called by a view and again at exit
	done sync.WaitGroup
}

// StartProgress shows progress on out after delay, every interval.
func StartProgress(out io.Writer, unit units.BlockSize, delay, interval time.Duration) *Progress {
	p := &Progress{out: out, unit: unit, stop: make(chan struct{})}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		t := time.NewTimer(delay)
		defer t.Stop()
		shown := false
		for {
			select {
			case <-p.stop:
				if shown {
					fmt.Fprint(p.out, "\r\x1b[K")
				}
				return
			case <-t.C:
				fmt.Fprintf(p.out, "\r\x1b[Kfdu: scanning: %d directories, %d entries, %s",
					p.dirs.Load(), p.entries.Load(), p.unit.Format(p.bytes.Load()))
				shown = true
				t.Reset(interval)
			}
		}
	}()
	return p
}

// Listed counts one listed directory of n entries and size bytes.
func (p *Progress) Listed(n int, size uint64) {
	if p == nil {
		return
	}
	p.dirs.Add(1)
	p.entries.Add(uint64(n))
	p.bytes.Add(size)
}

// Finish erases the line, if it was shown, and stops. Calls after the
// first do nothing; so does a call on nil.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.once.Do(func() { close(p.stop) })
	p.done.Wait()
}
