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
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pbednarcik/flexreaddir/walk"
	"github.com/spf13/pflag"
)

const version = "fdu (flexreaddir) 0.1.0"

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
	jobs                                                 int
	hashAll                                              bool

	// The views beyond du.
	view      string // "", "tree", "json" or "largest"
	keepFiles bool   // the view needs every file
	depth     int    // --depth: levels the tree view shows
	top       int    // --top: entries per level in the tree view
	largest   int    // --largest: how many files
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

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg := &config{maxDepth: math.MaxInt, timeType: "mtime"}
	warn := func(format string, a ...any) { fmt.Fprintf(stderr, "fdu: "+format+"\n", a...) }
	tryHelp := func() int {
		fmt.Fprintln(stderr, "Try 'fdu --help' for more information.")
		return 1
	}

	unit, err := defaultBlockSize()
	if err != nil {
		warn("%v", err)
		return 1
	}
	cfg.unit = unit

	fl := pflag.NewFlagSet("fdu", pflag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.SortFlags = false
	boolFlag := func(name, short string, set func()) {
		f := fl.VarPF(&orderedFlag{isBool: true, set: func(v string) error {
			if v == "true" {
				set()
			}
			return nil
		}}, name, short, "")
		f.NoOptDefVal = "true"
	}
	fl.BoolVarP(&cfg.all, "all", "a", false, "")
	fl.BoolVar(&cfg.apparent, "apparent-size", false, "")
	boolFlag("bytes", "b", func() { cfg.apparent = true; cfg.unit = blockSize{size: 1} })
	var badBlockSize string // the first -B value that does not parse
	fl.VarP(&orderedFlag{set: func(v string) error {
		b, err := parseBlockSize(v)
		if err == nil {
			cfg.unit = b
		} else if badBlockSize == "" {
			badBlockSize = v
		}
		return nil // reported after parsing, in du's words
	}}, "block-size", "B", "")
	fl.BoolVarP(&cfg.total, "total", "c", false, "")
	depth := fl.StringP("max-depth", "d", "", "")
	boolFlag("human-readable", "h", func() { cfg.unit = blockSize{size: 1, opts: humanAutoscale | humanSI | humanBase1024} })
	boolFlag("si", "", func() { cfg.unit = blockSize{size: 1, opts: humanAutoscale | humanSI} })
	boolFlag("kibibytes", "k", func() { cfg.unit = blockSize{size: 1024} })
	boolFlag("mebibytes", "m", func() { cfg.unit = blockSize{size: 1 << 20} })
	fl.BoolVarP(&cfg.summarize, "summarize", "s", false, "")
	fl.BoolVarP(&cfg.separateDirs, "separate-dirs", "S", false, "")
	fl.BoolVarP(&cfg.oneFS, "one-file-system", "x", false, "")
	boolFlag("dereference", "L", func() { cfg.deref = derefAll })
	boolFlag("no-dereference", "P", func() { cfg.deref = derefNone })
	boolFlag("dereference-args", "D", func() { cfg.deref = derefArgs })
	boolFlag("H", "H", func() { cfg.deref = derefArgs })
	fl.BoolVarP(&cfg.countLinks, "count-links", "l", false, "")
	fl.BoolVar(&cfg.inodes, "inodes", false, "")
	threshold := fl.StringP("threshold", "t", "", "")
	excludes := fl.StringArray("exclude", nil, "")
	excludeFrom := fl.StringArrayP("exclude-from", "X", nil, "")
	fl.BoolVarP(&cfg.null, "null", "0", false, "")
	files0 := fl.String("files0-from", "", "")
	timeWord := fl.String("time", "", "")
	fl.Lookup("time").NoOptDefVal = "mtime"
	timeStyle := fl.String("time-style", "", "")
	fl.IntVarP(&cfg.jobs, "threads", "j", runtime.GOMAXPROCS(0), "")
	tree := fl.Bool("tree", false, "")
	asJSON := fl.Bool("json", false, "")
	fl.IntVar(&cfg.largest, "largest", 0, "")
	fl.IntVar(&cfg.depth, "depth", 3, "")
	fl.IntVar(&cfg.top, "top", 10, "")
	progressFlag := fl.String("progress", "auto", "")
	help := fl.Bool("help", false, "")
	showVersion := fl.Bool("version", false, "")
	// -H is a short flag only; its long name must not be reachable as --H.
	fl.Lookup("H").Hidden = true

	if err := fl.Parse(args); err != nil {
		warn("%s", gnuFlagError(err))
		return tryHelp()
	}
	if *help {
		fmt.Fprint(stdout, usageText)
		return 0
	}
	if badBlockSize != "" {
		warn("invalid %s argument %s", optionAsGiven(args, "-B", "--block-size"), quote(badBlockSize))
		return 1
	}
	if *showVersion {
		fmt.Fprintln(stdout, version)
		return 0
	}
	if fl.Changed("max-depth") {
		n, err := strconv.ParseUint(*depth, 10, 63)
		if err != nil {
			warn("invalid maximum depth %s", quote(*depth))
			return tryHelp()
		}
		cfg.maxDepth = int(n)
	}
	if fl.Changed("threshold") {
		t, err := parseThreshold(*threshold)
		if err != nil {
			opt := optionAsGiven(args, "-t", "--threshold")
			if *threshold == "-0" {
				opt = "--threshold" // du's own words for -0, however it was given
			}
			warn("invalid %s argument %s", opt, quote(*threshold))
			return 1
		}
		cfg.threshold = t
	}
	for _, p := range *excludes {
		cfg.exclude.add(p)
	}
	for _, f := range *excludeFrom {
		if err := cfg.exclude.addFile(f); err != nil {
			warn("%s: %s", f, strerror(err))
			return 1
		}
	}
	if cfg.all && cfg.summarize {
		warn("cannot both summarize and show all entries")
		return tryHelp()
	}
	if cfg.summarize && fl.Changed("max-depth") {
		if cfg.maxDepth == 0 {
			warn("warning: summarizing is the same as using --max-depth=0")
		} else {
			warn("warning: summarizing conflicts with --max-depth=%d", cfg.maxDepth)
			return tryHelp()
		}
	}
	if cfg.summarize {
		cfg.maxDepth = 0
	}
	if cfg.inodes {
		if cfg.apparent {
			warn("warning: options --apparent-size and -b are ineffective with --inodes")
		}
		cfg.unit = blockSize{size: 1}
	}
	if fl.Changed("time") {
		switch *timeWord {
		case "mtime", "modification":
			cfg.timeType = "mtime"
		case "atime", "access", "use":
			cfg.timeType = "atime"
		case "ctime", "status":
			cfg.timeType = "ctime"
		default:
			warn("invalid argument %s for '--time'", quote(*timeWord))
			fmt.Fprint(stderr, "Valid arguments are:\n  - 'atime', 'access', 'use'\n  - 'ctime', 'status'\n")
			return tryHelp()
		}
		cfg.showTime = true
		f, err := timeFormat(*timeStyle)
		if err != nil {
			warn("%v", err)
			return tryHelp()
		}
		cfg.timeFormat = f
	}
	if cfg.jobs < 1 {
		cfg.jobs = 1
	}
	switch {
	case *tree && *asJSON, *tree && cfg.largest > 0, *asJSON && cfg.largest > 0:
		warn("--tree, --json and --largest are different views: choose one")
		return tryHelp()
	case *tree:
		cfg.view = "tree"
	case *asJSON:
		cfg.view = "json"
	case cfg.largest > 0:
		cfg.view = "largest"
	}
	if cfg.view != "" {
		cfg.keepFiles = true
		cfg.maxDepth = math.MaxInt // views need every level
	}

	files := fl.Args()
	if fl.Changed("files0-from") {
		if len(files) > 0 {
			warn("extra operand %s", quote(files[0]))
			fmt.Fprintln(stderr, "file operands cannot be combined with --files0-from")
			return tryHelp()
		}
		var data []byte
		var err error
		if *files0 == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(*files0)
		}
		if err != nil {
			warn("cannot open %s for reading: %s", quote(*files0), strerror(err))
			return 1
		}
		data = bytes.TrimSuffix(data, []byte{0})
		if len(data) > 0 {
			files = strings.Split(string(data), "\x00")
		} else {
			files = nil
		}
		cfg.hashAll = true
	} else {
		if len(files) == 0 {
			files = []string{"."}
		}
		cfg.hashAll = len(files) > 1 || cfg.deref == derefAll
	}

	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	status := 0
	var errMu sync.Mutex
	var s *scanner
	errOut := func(msg string) {
		errMu.Lock()
		defer errMu.Unlock()
		out.Flush()
		if s != nil && s.progress != nil {
			fmt.Fprint(stderr, "\r\x1b[K") // the progress line, if shown
		}
		fmt.Fprintf(stderr, "fdu: %s\n", msg)
		status = 1
	}
	r := &reporter{cfg: cfg, out: out, errOut: errOut, links: walk.NewLinkSet()}
	s = &scanner{cfg: cfg, argIDs: map[[2]uint64]bool{}}
	switch *progressFlag {
	case "auto":
		if isTerminal(stderr) {
			s.progress = startProgress(stderr, cfg.unit, time.Second, 250*time.Millisecond)
		}
	case "always":
		s.progress = startProgress(stderr, cfg.unit, time.Second, 250*time.Millisecond)
	case "never":
	default:
		warn("invalid argument %s for '--progress'", quote(*progressFlag))
		return tryHelp()
	}
	defer s.progress.finish()
	var todo []arg
	for i, f := range files {
		if f == "" {
			if fl.Changed("files0-from") {
				errOut(fmt.Sprintf("%s:%d: invalid zero-length file name", quotef(*files0), i+1))
			} else {
				errOut("invalid zero-length file name")
			}
			continue
		}
		st, err := statArg(s, f, cfg.deref != derefNone)
		if err == nil && !st.isDir {
			s.argIDs[[2]uint64{st.dev, st.ino}] = true
		}
		todo = append(todo, arg{f, st, err})
	}
	ctx := context.Background()
	if cfg.view != "" {
		s.views(ctx, todo, r, stdout, errOut)
		return status
	}
	for _, a := range todo {
		if cfg.exclude.excluded(a.path) {
			continue
		}
		if a.err != nil {
			errOut(s.argError(a))
			continue
		}
		if !a.st.isDir {
			r.file(a.st, a.path)
			continue
		}
		if summable(cfg) {
			if total, ok := s.sumDir(ctx, a.path, r.links, errOut); ok {
				r.grand.add(total)
				r.print(total, a.path)
			}
			continue
		}
		tree, err := s.scanDir(ctx, a.path)
		if err != nil && !errors.Is(err, context.Canceled) && tree.state != visited {
			if tree.state == pending {
				errOut("cannot read directory " + quote(a.path) + ": " + strerror(err))
				tree.state = unreadable
				tree.own, tree.dev, tree.ino = a.st.use, a.st.dev, a.st.ino
			}
		}
		r.dir(tree, a.path, 0)
	}
	if cfg.total {
		r.total()
	}
	return status
}

// arg is one command-line file and what a stat of it said.
type arg struct {
	path string
	st   statResult
	err  error
}

// parseThreshold parses -t SIZE: a size with du's units, negative to keep
// the entries at most that large.
func parseThreshold(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	n, _, err := parseSize(strings.TrimPrefix(s, "-"))
	if err != nil || n > math.MaxInt64 {
		return 0, fmt.Errorf("invalid --threshold argument %s", quote(s))
	}
	if neg {
		if n == 0 {
			return 0, fmt.Errorf("invalid --threshold argument '-0'")
		}
		return -int64(n), nil
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
