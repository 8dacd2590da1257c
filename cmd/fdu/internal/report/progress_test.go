package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// TestProgress shows the line after the delay, redraws it, and erases it;
// a scan shorter than the delay shows nothing.
func TestProgress(t *testing.T) {
	var b syncBuffer
	p := StartProgress(&b, units.BlockSize{Size: 1}, 10*time.Millisecond, 5*time.Millisecond)
	p.Listed(3, 4096)
	time.Sleep(50 * time.Millisecond)
	p.Finish()
	s := b.String()
	if !strings.Contains(s, "fdu: scanning: 1 directories, 3 entries, 4096") || !strings.HasSuffix(s, "\r\x1b[K") {
		t.Errorf("progress wrote %q", s)
	}
	var quiet syncBuffer
	p = StartProgress(&quiet, units.BlockSize{Size: 1}, time.Hour, time.Second)
	p.Listed(1, 1)
	p.Finish()
	if quiet.String() != "" {
		t.Errorf("a short scan wrote %q", quiet.String())
	}
}

type syncBuffer struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) lock() {
	if b.mu == nil {
		b.mu = make(chan struct{}, 1)
	}
	b.mu <- struct{}{}
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.String()
}
