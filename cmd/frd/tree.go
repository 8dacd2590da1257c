package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/pbednarcik/flexreaddir/tree"
)

func runClone(args []string, stdout, stderr io.Writer) int {
	fs, o := cloneFlags()
	if err := parseFlags(fs, args, stderr); err != nil {
		return 2
	}
	method, specials, workers, opts := o.method, o.specials, o.workers, &o.tree
	if fs.NArg() != 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	opts.Method, opts.Workers = tree.Method(*method), *workers
	switch *specials {
	case "skip":
		opts.Specials = tree.SkipSpecials
	case "copy":
		opts.Specials = tree.ReproduceSpecials
	case "fail":
		opts.Specials = tree.FailOnSpecials
	default:
		fmt.Fprintf(stderr, "frd clone: --specials must be skip, copy or fail, not %q\n", *specials)
		return 2
	}
	// SIGINT, SIGTERM, SIGHUP and SIGQUIT cancel the clone, which then
	// removes what it made.
	// A second signal ends the command at once, as the default would.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got atomic.Value
	go func() {
		if s, ok := <-sigs; ok {
			got.Store(s)
			signal.Stop(sigs)
			cancel()
		}
	}()
	res, err := tree.CloneContext(ctx, fs.Arg(0), fs.Arg(1), opts)
	for _, w := range res.Warnings {
		warn(stderr, "frd clone", w)
	}
	switch {
	case got.Load() != nil && errors.Is(err, context.Canceled):
		warn(stderr, "frd clone", "interrupted; "+fs.Arg(1)+" not made")
		return 128 + int(got.Load().(syscall.Signal)) // 130 for SIGINT, 143 for SIGTERM
	case err != nil:
		warn(stderr, "frd clone", err)
		return 1
	}
	fmt.Fprintln(stdout, res)
	return 0
}

func runChmod(args []string, stdout, stderr io.Writer) int {
	fs, o := chmodFlags()
	if err := parseFlags(fs, args, stderr); err != nil {
		return 2
	}
	files, dirs, workers := o.files, o.dirs, o.workers
	if fs.NArg() != 1 || *files == *dirs {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var n int
	var err error
	what := "files made read-only"
	if *files {
		n, err = tree.FilesReadOnly(fs.Arg(0), *workers)
	} else {
		n, err = tree.DirsWritable(fs.Arg(0), *workers)
		what = "directories made writable"
	}
	fmt.Fprintf(stdout, "%d %s\n", n, what)
	if err != nil {
		warn(stderr, "frd chmod", err)
		return 1
	}
	return 0
}
