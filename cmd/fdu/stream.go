package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
)

// streamExport is `fdu -o FILE DIR`: the export written as the scan goes
// (dutree.Stream), in the memory of the directories open, not of the
// tree. A signal (INT, TERM, HUP) stops the scan: the file is finished,
// whole and marked incomplete, and renamed into place as a complete one
// would be; fdu then exits as the signal asks (128 and its number). A
// second signal exits at once: what is left is the temporary file, never
// a part of one under name.
func (c *command) streamExport(cfg *config, dir, name string) int {
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
		OneFileSystem: cfg.du.WalkOptions(false, nil).OneFileSystem,
		OnError:       func(e dutree.Error) { c.errOut(scanError(e)) },
	}
	if cfg.du.Exclude.HasPatterns() {
		o.Exclude = cfg.du.Exclude.Excluded
	}
	wo := dutree.WriteOptions{Meta: dutree.Meta{Progname: "fdu", Progver: version.Number(), Timestamp: time.Now().Unix()}, Mtime: cfg.du.ShowTime, Extended: *cfg.flags.browse.extended}
	var rootErr error
	write := func(w io.Writer) error {
		_, err := dutree.Stream(ctx, w, dir, o, wo)
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Path == dir {
			rootErr = err
		}
		return err
	}
	err := c.writeTo(name, write)
	switch {
	case rootErr != nil:
		c.errOut(message.CannotReadDir(dir, rootErr))
		return 1
	case err != nil:
		c.warn("%s", message.FileError(name, err))
		return 1
	}
	if sig, ok := got.Load().(syscall.Signal); ok {
		c.warn("stopped by a signal: %s holds the part scanned, marked incomplete", message.Quotef(name))
		return 128 + int(sig)
	}
	return 0 // finish adds the scan's errors' status
}
