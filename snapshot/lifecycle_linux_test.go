package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// wideTree is a tree of a few hundred directories, enough for a compare's
// workers and read-ahead to be busy when it is stopped.
func wideTree(t testing.TB) string {
	dir := t.TempDir()
	var specs []string
	for i := range 20 {
		for j := range 15 {
			specs = append(specs, fmt.Sprintf("d%02d/e%02d/f", i, j))
		}
	}
	build(t, dir, specs...)
	settle()
	return dir
}

// failingWriter fails once n bytes have been written.
type failingWriter struct{ n int }

var errWrite = errors.New("write failed on purpose")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errWrite
	}
	w.n -= len(p)
	return len(p), nil
}

// failingReader gives n bytes of r, then an error.
type failingReader struct {
	r io.Reader
	n int
}

var errRead = errors.New("read failed on purpose")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errRead
	}
	p = p[:min(len(p), f.n)]
	n, err := f.r.Read(p)
	f.n -= n
	return n, err
}

// TestEarlyStopsCloseEverything: however Take or Compare stops early (a
// cancelled context, a writer's or reader's error, a callback's error, a
// snapshot cut short), it returns that error and leaves no descriptor
// open.
func TestEarlyStopsCloseEverything(t *testing.T) {
	dir := wideTree(t)
	snap := take(t, dir, nil)
	build(t, dir, "d00/new", "d19/e14/new")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	stopAfterOne := func(ctx context.Context) (context.Context, func(*Change) error) {
		ctx, cancel := context.WithCancel(ctx)
		return ctx, func(*Change) error { cancel(); return nil }
	}
	errFn := errors.New("callback failed on purpose")
	cases := []struct {
		name string
		run  func() error
		want error
	}{
		{"Take, cancelled", func() error { return Take(cancelled, dir, io.Discard, nil) }, context.Canceled},
		{"Take, writer fails", func() error { return Take(context.Background(), dir, &failingWriter{n: 10}, nil) }, errWrite},
		{"Compare, cancelled in a callback", func() error {
			ctx, fn := stopAfterOne(context.Background())
			return Compare(ctx, bytes.NewReader(snap), dir, nil, fn)
		}, context.Canceled},
		{"Compare, callback fails", func() error {
			return Compare(context.Background(), bytes.NewReader(snap), dir, nil, func(*Change) error { return errFn })
		}, errFn},
		{"Compare, reader fails", func() error {
			return Compare(context.Background(), &failingReader{bytes.NewReader(snap), len(snap) / 2}, dir, nil, func(*Change) error { return nil })
		}, errRead},
		{"Compare, snapshot cut short", func() error {
			return Compare(context.Background(), bytes.NewReader(snap[:len(snap)-100]), dir, nil, func(*Change) error { return nil })
		}, ErrFormat},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := testfs.OpenFiles(t)
			err := tc.run()
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
			if after := testfs.OpenFiles(t); after != before {
				t.Errorf("%d descriptors open before, %d after", before, after)
			}
		})
	}
}

// TestFewDescriptors: under RLIMIT_NOFILE 16 a snapshot and a compare
// still see everything, and leave nothing open.
func TestFewDescriptors(t *testing.T) {
	dir := wideTree(t)
	testfs.LimitOpenFiles(t, 16)
	before := testfs.OpenFiles(t)
	snap := take(t, dir, nil)
	build(t, dir, "d07/e03/new", "d19/new/")
	equalLines(t, "changes", changes(t, snap, dir, &CompareOptions{Workers: 8}), []string{"A d07/e03/new", "A d19/new"})
	if after := testfs.OpenFiles(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
	dirs, err := readAll(snap)
	if err != nil || len(dirs) != 1+20+20*15 {
		t.Errorf("the snapshot holds %d directories (%v), want %d", len(dirs), err, 1+20+20*15)
	}
}
