package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/pbednarcik/flexreaddir/cmd/internal/coldprocs"
	"github.com/pbednarcik/flexreaddir/cmd/internal/termtext"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/term"
)

// lines lends the DirFunc a buffer for a part's lines.
var lines = sync.Pool{New: func() any { return new([]byte) }}

// runFind prints every path under each DIR, the DIR first, as find, bfs and
// fd print them: names and types only, so no file is stat'ed, in the
// parallel walk's order.
func runFind(args []string, stdout, stderr io.Writer) int {
	fs, o := findFlags()
	if err := parseFlags(fs, args, stderr); err != nil {
		return 2
	}
	jobs, null, count := o.jobs, o.null, o.count
	dirs := fs.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	var mu sync.Mutex // out, status
	status := 0
	opts := &walk.Options{Workers: *jobs, Names: true, Reuse: true, Batches: true,
		// While directories are read from the disk, more goroutines
		// than CPUs, each with a P (as fdu does).
		IOWorkers: coldprocs.Extra(*jobs), OnIOWorkers: coldprocs.Hook(),
		OnError: func(e *walk.Error) error {
			mu.Lock()
			defer mu.Unlock()
			out.Flush()
			warn(stderr, "frd", e)
			status = 1
			return nil
		}}
	end := byte('\n')
	if *null {
		end = 0 // a name may hold a newline
	}
	// A terminal is shown names escaped, as GNU find shows them there; a
	// pipe or a file gets their bytes.
	escape := toTerminal(stdout)
	fn := printPaths(out, &mu, end, escape)
	var total atomic.Int64
	if *count {
		fn = func(d *walk.Dir) error {
			total.Add(int64(len(d.Entries)))
			return nil
		}
	}
	for _, dir := range dirs {
		if !*count {
			mu.Lock()
			if escape {
				out.WriteString(termtext.Escape(dir)) // from a glob, another user's name
			} else {
				out.WriteString(dir)
			}
			out.WriteByte(end)
			mu.Unlock()
		} else if _, err := os.Lstat(dir); err == nil {
			total.Add(1) // the DIR itself, as find counts it
		}
		if err := walk.Dirs(context.Background(), dir, opts, fn); err != nil {
			warn(stderr, "frd", err)
			status = 1
		}
	}
	if *count {
		fmt.Fprintln(out, total.Load())
	}
	if err := out.Flush(); err != nil {
		warn(stderr, "frd", err)
		return 1
	}
	return status
}

// printPaths is the DirFunc that writes each entry's path to out, ended by
// end, escaped for a terminal if escape is set. Each part's lines are made outside the lock, then written at once.
func printPaths(out *bufio.Writer, mu *sync.Mutex, end byte, escape bool) walk.DirFunc {
	return func(d *walk.Dir) error {
		buf := lines.Get().(*[]byte)
		b := (*buf)[:0]
		for _, e := range d.Entries {
			start := len(b)
			b = append(b, d.Path...)
			if len(d.Path) == 0 || d.Path[len(d.Path)-1] != os.PathSeparator {
				b = append(b, os.PathSeparator)
			}
			b = append(b, e.Name...)
			if escape {
				b = append(b[:start], termtext.Escape(string(b[start:]))...)
			}
			b = append(b, end)
		}
		mu.Lock()
		_, werr := out.Write(b)
		mu.Unlock()
		*buf = b
		lines.Put(buf)
		return werr
	}
}

// toTerminal reports whether w is a terminal (a variable for the tests).
var toTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
