package interactive

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// streamExport is `fdu -o FILE DIR`: the export written as the scan goes
// (dutree.Stream), in the memory of the directories open, not of the
// tree. A signal (INT, TERM, HUP) stops the scan: the file is finished,
// whole and marked incomplete, and renamed into place as a complete one
// would be; fdu then exits as the signal asks (128 and its number). A
// second signal exits at once: what is left is the temporary file, never
// a part of one under name.
func (r *run) streamExport(dir, name string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got atomic.Value
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		for sig := range sigs {
			if got.Load() != nil {
				n, _ := sig.(syscall.Signal)
				os.Exit(128 + int(n))
			}
			got.Store(sig)
			cancel()
		}
	}()
	o := dutree.StreamOptions{
		OneFileSystem: r.Du.WalkOptions(false, nil).OneFileSystem,
		OnError:       func(e dutree.Error) { r.Error(scanError(e)) },
	}
	if r.Du.Exclude.HasPatterns() {
		o.Exclude = r.Du.Exclude.Excluded
	}
	wo := dutree.WriteOptions{Meta: meta(), Mtime: r.Du.ShowTime, Extended: r.Extended}
	var rootErr error
	write := func(w io.Writer) error {
		_, err := dutree.Stream(ctx, w, dir, o, wo)
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Path == dir {
			rootErr = err
		}
		return err
	}
	err := r.writeTo(name, write)
	switch {
	case rootErr != nil:
		r.Error(message.CannotReadDir(dir, rootErr))
		return 1
	case err != nil:
		r.Warn("%s", message.FileError(name, err))
		return 1
	}
	if sig, ok := got.Load().(syscall.Signal); ok {
		r.Warn("stopped by a signal: %s holds the part scanned, marked incomplete", message.Quotef(name))
		return 128 + int(sig)
	}
	return 0 // the caller adds the scan's errors' status
}
