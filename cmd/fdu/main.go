// Command fdu summarizes disk usage, as GNU du does, only faster: it walks
// the tree on several goroutines with the frd lister (getdents64 and one
// statx per file, relative to each directory) and prints what du prints,
// byte for byte, in du's order.
//
//	fdu -sh .
//	fdu -a --max-depth=2 /usr
//
// This package is the command's flags and wiring only: what du counts is
// package du's, how it is printed package report's; -i, -o and -f are run
// by package interactive, on the browser packages browse and dutree. It
// may import them all.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/interactive"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/locale"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/report"
)

func main() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		// A -s scan allocates little (walk.Options.Reuse), but the full
		// scan keeps a record per directory: collecting at 50% growth
		// rather than 100% cut the deep tree's peak from 7.6 to 5.8 MiB
		// at no cost in CPU when every scan made garbage per listing;
		// 20% cost 10% more CPU (BENCHMARKS.md).
		debug.SetGCPercent(50)
	}
	message.SetProg(os.Args[0])
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is fdu with its arguments (without the program's name) and streams:
// parse the command line, scan each argument, report. It returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The locale is read when a message or a pattern first needs it.
	charset := sync.OnceValue(localeCharset)
	message.SetCharset(charset)
	c := &command{stdin: stdin, stderr: stderr, out: bufio.NewWriterSize(stdout, 64<<10), stdout: stdout, charset: charset}
	if shell, ok := completionShell(args); ok {
		return c.finish(c.completion(shell))
	}
	cfg, files, code, ok := c.parse(args)
	if ok {
		code = c.execute(cfg, files)
	}
	return c.finish(code)
}

// command is one run's streams and status.
type command struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	out            *bufio.Writer // stdout, buffered
	charset        func() message.Charset

	mu       sync.Mutex // guards status and the interleaving of the streams
	status   int
	progress *report.Progress
}

// warn reports a problem with the command line.
func (c *command) warn(format string, a ...any) {
	fmt.Fprintf(c.stderr, "%s: "+format+"\n", append([]any{message.Prog}, a...)...)
}

// tryHelp ends a bad command line as getopt's users do.
func (c *command) tryHelp() int {
	fmt.Fprintln(c.stderr, message.TryHelp(message.Prog))
	return 1
}

// errOut reports an error met while scanning: after what stdout has so
// far, and the run then exits 1.
func (c *command) errOut(msg string) {
	c.note(msg)
	c.mu.Lock()
	c.status = 1
	c.mu.Unlock()
}

// note reports msg as errOut does without failing the run.
func (c *command) note(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Flush()
	if c.progress != nil {
		fmt.Fprint(c.stderr, "\r\x1b[K") // the progress line, if shown
	}
	fmt.Fprintf(c.stderr, "%s: %s\n", message.Prog, msg)
}

// finish flushes stdout: a write error (a full disk, a closed pipe) is
// reported and fails the run, as with du.
func (c *command) finish(code int) int {
	c.progress.Finish()
	if err := c.out.Flush(); err != nil {
		c.warn("%s", message.WriteError(err))
		return 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(code, c.status)
}

// execute scans each file and reports as cfg asks.
func (c *command) execute(cfg *config, files []string) int {
	if cfg.browse != nil {
		return interactive.Run(cfg.browse, interactive.Streams{Stdin: c.stdin, Out: c.out, OutIsTerminal: isTerminal(c.stdout), Warn: c.warn, Error: c.errOut})
	}
	var counter du.Progress // nil, not an interface holding a nil *report.Progress
	if c.progress != nil {
		counter = c.progress
	}
	s := du.NewScanner(&cfg.du, counter)
	args := s.StatArgs(files, cfg.files0)
	ctx := context.Background()
	msgs := report.Messages{Error: c.errOut, Note: c.note}
	if cfg.report.View == "" {
		report.Du(ctx, &cfg.report, s, args, c.out, msgs)
		return 0
	}
	v := report.ScanViews(ctx, &cfg.report, s, args, msgs)
	c.progress.Finish() // the view's lines stand alone
	v.Print(c.out)
	return 0
}

// localeCharset is the character set of the locale du would run in, as
// quoting needs it. A multibyte set other than UTF-8 (EUC-JP, GB18030)
// is read as C: fdu has none of their decoders.
func localeCharset() message.Charset {
	ct := locale.FromEnv(os.LookupEnv)
	switch {
	case ct.UTF8():
		return message.Charset{UTF8: true, Print: ct.IsWPrint}
	case ct.Unibyte():
		return message.Charset{PrintByte: ct.IsPrint}
	}
	return message.Charset{}
}
