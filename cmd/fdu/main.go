// Command fdu summarizes disk usage, as GNU du does, only faster: it walks
// the tree on several goroutines with the frd lister (getdents64 and one
// statx per file, relative to each directory) and prints what du prints,
// byte for byte, in du's order.
//
//	fdu -sh .
//	fdu -a --max-depth=2 /usr
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/pbednarcik/flexreaddir/walk"
)

const version = "0.1.0"

// Symbolic-link modes: -P (default), -H/-D, -L.
const (
	derefNone = iota
	derefArgs
	derefAll
)

// config is what the command line and the environment ask for.
type config struct {
	all, apparent, total, summarize, separateDirs, oneFS bool
	countLinks, inodes, null, showTime                   bool
	maxDepth                                             int
	unit                                                 blockSize
	threshold                                            int64
	deref                                                int
	exclude                                              excluder
	timeType, timeFormat                                 string
	loc                                                  *time.Location // --time's zone, from TZ
	jobs                                                 int
	hashAll                                              bool

	// The views beyond du.
	view      string // "", "tree", "json" or "largest"
	keepFiles bool   // the view needs every file
	depth     int    // --depth: levels the tree view shows
	top       int    // --top: entries per level in the tree view
	largest   int    // --largest: how many files

	files0 string // --files0-from's file, for messages

	flags *flagValues // the command line, for the interactive mode's options
}

func main() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		// A -s scan allocates little (walk.Options.Reuse), but the full
		// scan keeps a record per directory: collecting at 50% growth
		// rather than 100% cut the deep tree's peak from 7.6 to 5.8 MiB
		// at no cost in CPU when every scan made garbage per listing;
		// 20% cost 10% more CPU (BENCHMARKS.md).
		debug.SetGCPercent(50)
	}
	setProgName(os.Args[0])
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// orderedFlag is a flag whose effect depends on where it stands among its
// rivals (-b, -h, -k, -m, --si, -B; -H, -L, -P), as with getopt: its Set
// runs when the parser meets it, so the last one wins.
type orderedFlag struct {
	set    func(string) error
	isBool bool
}

func (f *orderedFlag) String() string     { return "" }
func (f *orderedFlag) Set(v string) error { return f.set(v) }
func (f *orderedFlag) Type() string {
	if f.isBool {
		return "bool"
	}
	return "string"
}

// run is fdu with its arguments (without the program's name) and streams:
// parse the command line, scan each argument, report. It returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &command{stdin: stdin, stderr: stderr, out: bufio.NewWriterSize(stdout, 64<<10), stdout: stdout}
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

	mu       sync.Mutex // guards status and the interleaving of the streams
	status   int
	progress *progress
}

// warn reports a problem with the command line.
func (c *command) warn(format string, a ...any) {
	fmt.Fprintf(c.stderr, "%s: "+format+"\n", append([]any{progName}, a...)...)
}

// tryHelp ends a bad command line as getopt's users do.
func (c *command) tryHelp() int {
	fmt.Fprintf(c.stderr, "Try '%s --help' for more information.\n", progName)
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
	fmt.Fprintf(c.stderr, "%s: %s\n", progName, msg)
}

// finish flushes stdout: a write error (a full disk, a closed pipe) is
// reported and fails the run, as with du.
func (c *command) finish(code int) int {
	c.progress.finish()
	if err := c.out.Flush(); err != nil {
		c.warn("write error: %s", strerror(err))
		return 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(code, c.status)
}

// execute scans each file and reports as cfg asks.
func (c *command) execute(cfg *config, files []string) int {
	if cfg.view == "browse" {
		return c.browseRun(cfg, cfg.flags, files)
	}
	r := &reporter{cfg: cfg, out: c.out, errOut: c.errOut, note: c.note, links: walk.NewLinkSet()}
	s := &scanner{cfg: cfg, argIDs: map[[2]uint64]bool{}}
	s.progress = c.progress
	todo := c.statArgs(s, cfg, files)
	ctx := context.Background()
	if cfg.view != "" {
		s.views(ctx, todo, r, c.out, c.errOut)
		return 0
	}
	for _, a := range todo {
		c.scanArg(ctx, s, r, a)
	}
	if cfg.total {
		r.total()
	}
	return 0
}

// statArgs stats each file named on the command line, reporting empty
// names.
func (c *command) statArgs(s *scanner, cfg *config, files []string) []arg {
	var todo []arg
	for i, f := range files {
		if f == "-" && cfg.files0 == "-" {
			c.errOut("when reading file names from stdin, no file name of '-' allowed")
			continue
		}
		if f == "" {
			if cfg.files0 != "" {
				c.errOut(fmt.Sprintf("%s:%d: invalid zero-length file name", quotef(cfg.files0), i+1))
			} else {
				c.errOut("invalid zero-length file name")
			}
			continue
		}
		st, err := statArg(s, f, cfg.deref != derefNone)
		if err == nil && !st.isDir {
			s.argIDs[[2]uint64{st.dev, st.ino}] = true
		}
		todo = append(todo, arg{f, st, err})
	}
	return todo
}

// scanArg scans and reports one command-line file.
func (c *command) scanArg(ctx context.Context, s *scanner, r *reporter, a arg) {
	cfg := s.cfg
	switch {
	case r.stopped || s.moved: // du stopped at a directory moved while walked
		return
	case cfg.exclude.excluded(a.path):
		return
	case a.err != nil:
		c.errOut(s.argError(a))
		return
	case !a.st.isDir:
		r.file(a.st, a.path)
		return
	case summable(cfg):
		if total, ok := s.sumDir(ctx, a.path, r.links, c.errOut); ok {
			r.grand.add(total)
			r.print(total, a.path)
		}
		return
	}
	tree, err := s.scanDir(ctx, a.path)
	if err != nil && !errors.Is(err, context.Canceled) && tree.state == pending {
		c.errOut("cannot read directory " + quote(a.path) + ": " + strerror(err))
		tree.state = unreadable
		tree.own, tree.dev, tree.ino = a.st.use, a.st.dev, a.st.ino
	}
	r.dir(tree, a.path, 0)
}

// arg is one command-line file and what a stat of it said.
type arg struct {
	path string
	st   statResult
	err  error
}

// parseThreshold parses -t SIZE: a size with du's units, negative to keep
// the entries at most that large (down to -2^63, as xstrtoimax reads it).
func parseThreshold(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	n, _, err := parseSize(strings.TrimPrefix(s, "-"))
	switch {
	case err != nil:
		return 0, err
	case neg && n == 0:
		return 0, errSizeInvalid // du's own words for -0, below
	case neg && n <= 1<<63:
		return int64(-n), nil
	case n > math.MaxInt64:
		return 0, errSizeOverflow
	}
	return int64(n), nil
}

// optionAsGiven is how the command line spelled an option, short or long,
// for du's "invalid -B argument" messages, which name it so.
func optionAsGiven(args []string, short, long string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, long) {
			return long
		}
	}
	return short
}

// gnuFlagError words a flag-parsing error as getopt does.
func gnuFlagError(err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		// unknown shorthand flag: 'q' in -q
		if i := strings.Index(msg, "'"); i >= 0 && i+2 < len(msg) {
			return "invalid option -- '" + msg[i+1:i+2] + "'"
		}
	case strings.HasPrefix(msg, "unknown flag: "):
		return "unrecognized option '" + strings.TrimPrefix(msg, "unknown flag: ") + "'"
	case strings.Contains(msg, "flag needs an argument"):
		if i := strings.Index(msg, "'"); i >= 0 && i+2 < len(msg) && !strings.Contains(msg, "--") {
			return "option requires an argument -- '" + msg[i+1:i+2] + "'"
		}
		if i := strings.Index(msg, "--"); i >= 0 {
			return "option '" + strings.TrimSpace(msg[i:]) + "' requires an argument"
		}
	}
	return msg
}
