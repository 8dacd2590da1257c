package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// progName is what fdu calls itself in messages: argv[0] as it was run,
// as coreutils' set_program_name keeps it ("/usr/bin/du: cannot access"),
// so that a link named du says "du:". Tests, which run in process, keep
// "fdu".
var progName = "fdu"

func setProgName(argv0 string) {
	if argv0 != "" && !strings.HasSuffix(filepath.Base(argv0), ".test") {
		progName = argv0
	}
}

// helpText is --help's text, naming the program as it was run.
func helpText() string {
	return strings.ReplaceAll(usageText, "fdu [OPTION]", progName+" [OPTION]")
}

// versionText is --version's, in coreutils' layout: the first line's last
// word is the version, as help-version.sh reads it.
func versionText() string {
	return progName + " (flexreaddir) " + version + "\n" +
		"A parallel du on the frd lister: https://github.com/pbednarcik/flexreaddir\n"
}

// flagValues are the flags whose values parse checks after the parser.
type flagValues struct {
	fl                                            *pflag.FlagSet
	args                                          []string
	badBlockSize                                  string // the first -B value that does not parse
	badBlockErr                                   error
	depth, threshold, files0, timeWord, timeStyle *string
	progress                                      *string
	excludes, excludeFrom                         *[]string
	tree, asJSON, help, version                   *bool
	browse                                        browseFlags
}

// newFlags defines du's options, and fdu's, on cfg.
func newFlags(cfg *config) *flagValues {
	fl := pflag.NewFlagSet(progName, pflag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.SortFlags = false
	v := &flagValues{fl: fl}
	boolFlag := func(name, short string, set func()) {
		f := fl.VarPF(&orderedFlag{isBool: true, set: func(s string) error {
			if s == "true" {
				set()
			}
			return nil
		}}, name, short, "")
		f.NoOptDefVal = "true"
	}
	fl.BoolVarP(&cfg.all, "all", "a", false, "")
	fl.BoolVar(&cfg.apparent, "apparent-size", false, "")
	boolFlag("bytes", "b", func() { cfg.apparent = true; cfg.unit = blockSize{size: 1} })
	fl.VarP(&orderedFlag{set: func(s string) error {
		b, err := parseBlockSize(s)
		if err == nil {
			cfg.unit = b
		} else if v.badBlockErr == nil {
			v.badBlockSize, v.badBlockErr = s, err
		}
		return nil // reported after parsing, in du's words
	}}, "block-size", "B", "")
	fl.BoolVarP(&cfg.total, "total", "c", false, "")
	v.depth = fl.StringP("max-depth", "d", "", "")
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
	v.threshold = fl.StringP("threshold", "t", "", "")
	v.excludes = fl.StringArray("exclude", nil, "")
	v.excludeFrom = fl.StringArrayP("exclude-from", "X", nil, "")
	fl.BoolVarP(&cfg.null, "null", "0", false, "")
	v.files0 = fl.String("files0-from", "", "")
	v.timeWord = fl.String("time", "", "")
	fl.Lookup("time").NoOptDefVal = "mtime"
	v.timeStyle = fl.String("time-style", "", "")
	fl.IntVarP(&cfg.jobs, "threads", "j", runtime.GOMAXPROCS(0), "")
	v.tree = fl.Bool("tree", false, "")
	v.asJSON = fl.Bool("json", false, "")
	fl.IntVar(&cfg.largest, "largest", 0, "")
	fl.IntVar(&cfg.depth, "depth", 3, "")
	fl.IntVar(&cfg.top, "top", 10, "")
	v.progress = fl.String("progress", "auto", "")
	v.browse = browseFlags{
		interactive: fl.BoolP("interactive", "i", false, ""),
		export:      fl.StringP("output-file", "o", "", ""),
		load:        fl.StringP("input-file", "f", "", ""),
		readOnly:    fl.Bool("read-only", false, ""),
		noColor:     fl.Bool("no-color", false, ""),
		noMouse:     fl.Bool("no-mouse", false, ""),
	}
	v.help = fl.Bool("help", false, "")
	v.version = fl.Bool("version", false, "")
	// -H is a short flag only; its long name must not be reachable as --H.
	fl.Lookup("H").Hidden = true
	return v
}

// parse reads the command line into a config and the files to scan. When
// ok is false the run is over, with code.
func (c *command) parse(args []string) (cfg *config, files []string, code int, ok bool) {
	cfg = &config{maxDepth: math.MaxInt, timeType: "mtime"}
	unit, err := defaultBlockSize()
	if err != nil {
		c.warn("%v", err)
		return nil, nil, 1, false
	}
	cfg.unit = unit
	v := newFlags(cfg)
	v.args = args
	cfg.flags = v
	expanded, err := expandLongOptions(v.fl, args)
	if err == nil {
		err = v.fl.Parse(expanded)
	}
	if err != nil {
		c.warn("%s", gnuFlagError(err))
		return nil, nil, c.tryHelp(), false
	}
	if *v.help {
		fmt.Fprint(c.out, helpText())
		return nil, nil, 0, false
	}
	if v.badBlockErr != nil {
		c.warn("%s", sizeMessage(v.badBlockErr, optionAsGiven(args, "-B", "--block-size"), v.badBlockSize))
		return nil, nil, 1, false
	}
	if *v.version {
		fmt.Fprint(c.out, versionText())
		return nil, nil, 0, false
	}
	for _, step := range []func(*config, *flagValues) (int, bool){c.sizes, c.excludes, c.modes, c.times, c.views, c.browseMode, c.progressLine} {
		if code, ok := step(cfg, v); !ok {
			return nil, nil, code, false
		}
	}
	files, code, ok = c.fileList(cfg, v)
	return cfg, files, code, ok
}

// sizes applies --max-depth and --threshold.
func (c *command) sizes(cfg *config, v *flagValues) (int, bool) {
	if v.fl.Changed("max-depth") {
		n, err := strconv.ParseUint(*v.depth, 10, 63)
		if err != nil {
			c.warn("invalid maximum depth %s", quote(*v.depth))
			return c.tryHelp(), false
		}
		cfg.maxDepth = int(n)
	}
	if v.fl.Changed("threshold") {
		t, err := parseThreshold(*v.threshold)
		if err != nil {
			opt := optionAsGiven(v.args, "-t", "--threshold")
			if *v.threshold == "-0" {
				opt = "--threshold" // du's own words for -0, however it was given
			}
			c.warn("%s", sizeMessage(err, opt, *v.threshold))
			return 1, false
		}
		cfg.threshold = t
	}
	return 0, true
}

// excludes reads --exclude and --exclude-from.
func (c *command) excludes(cfg *config, v *flagValues) (int, bool) {
	for _, p := range *v.excludes {
		cfg.exclude.add(p)
	}
	for _, f := range *v.excludeFrom {
		if err := cfg.exclude.addFile(f, c.stdin); err != nil {
			c.warn("%s: %s", quotef(f), strerror(err))
			return c.tryHelp(), false
		}
	}
	return 0, true
}

// modes checks the options that rule each other out or change others.
func (c *command) modes(cfg *config, v *flagValues) (int, bool) {
	if cfg.all && cfg.summarize {
		c.warn("cannot both summarize and show all entries")
		return c.tryHelp(), false
	}
	if cfg.summarize && v.fl.Changed("max-depth") {
		if cfg.maxDepth != 0 {
			c.warn("warning: summarizing conflicts with --max-depth=%d", cfg.maxDepth)
			return c.tryHelp(), false
		}
		c.warn("warning: summarizing is the same as using --max-depth=0")
	}
	if cfg.summarize {
		cfg.maxDepth = 0
	}
	if cfg.inodes {
		if cfg.apparent {
			c.warn("warning: options --apparent-size and -b are ineffective with --inodes")
		}
		cfg.unit.size = 1 // counts, still in -h's or --si's form if asked
	}
	cfg.jobs = max(cfg.jobs, 1)
	return 0, true
}

// times applies --time and --time-style.
func (c *command) times(cfg *config, v *flagValues) (int, bool) {
	if !v.fl.Changed("time") {
		return 0, true
	}
	switch *v.timeWord {
	case "mtime", "modification":
		cfg.timeType = "mtime"
	case "atime", "access", "use":
		cfg.timeType = "atime"
	case "ctime", "status":
		cfg.timeType = "ctime"
	default:
		c.warn("invalid argument %s for '--time'", quote(*v.timeWord))
		fmt.Fprint(c.stderr, "Valid arguments are:\n  - 'atime', 'access', 'use'\n  - 'ctime', 'status'\n")
		return c.tryHelp(), false
	}
	cfg.showTime = true
	f, err := timeFormat(*v.timeStyle)
	if err != nil {
		c.warn("%v", err)
		return c.tryHelp(), false
	}
	cfg.timeFormat = f
	cfg.loc = localZone()
	return 0, true
}

// views picks fdu's own view, if one is asked for.
func (c *command) views(cfg *config, v *flagValues) (int, bool) {
	switch {
	case *v.tree && *v.asJSON, *v.tree && cfg.largest > 0, *v.asJSON && cfg.largest > 0:
		c.warn("--tree, --json and --largest are different views: choose one")
		return c.tryHelp(), false
	case *v.tree:
		cfg.view = "tree"
	case *v.asJSON:
		cfg.view = "json"
	case cfg.largest > 0:
		cfg.view = "largest"
	}
	if cfg.view == "" {
		return 0, true
	}
	if opt := unsupportedInView(cfg, v); opt != "" {
		c.warn("--%s does not take %s", cfg.view, opt)
		return c.tryHelp(), false
	}
	cfg.keepFiles = true
	cfg.maxDepth = math.MaxInt // views need every level
	return 0, true
}

// unsupportedInView names an option given that cfg's view does not honour
// (rather than ignore it in silence), or is "".
func unsupportedInView(cfg *config, v *flagValues) string {
	changed := func(names ...string) bool {
		for _, n := range names {
			if v.fl.Changed(n) {
				return true
			}
		}
		return false
	}
	switch {
	case cfg.total:
		return "-c"
	case changed("threshold"):
		return "-t"
	case cfg.showTime:
		return "--time"
	case cfg.view == "tree" && cfg.separateDirs:
		return "-S"
	case cfg.view == "largest" && cfg.null:
		return "-0"
	case cfg.view == "json" && changed("block-size", "human-readable", "si", "kibibytes", "mebibytes"):
		return "a unit (-B, -h, --si, -k, -m): it writes bytes"
	}
	return ""
}

// progressLine starts the progress line on stderr, if asked for.
func (c *command) progressLine(cfg *config, v *flagValues) (int, bool) {
	if cfg.view == "browse" {
		return 0, true // the browser shows its own
	}
	switch *v.progress {
	case "auto":
		if isTerminal(c.stderr) {
			c.progress = startProgress(c.stderr, cfg.unit, time.Second, 250*time.Millisecond)
		}
	case "always":
		c.progress = startProgress(c.stderr, cfg.unit, time.Second, 250*time.Millisecond)
	case "never":
	default:
		c.warn("invalid argument %s for '--progress'", quote(*v.progress))
		return c.tryHelp(), false
	}
	return 0, true
}

// fileList is the files to scan: the operands, or --files0-from's names.
func (c *command) fileList(cfg *config, v *flagValues) ([]string, int, bool) {
	files := v.fl.Args()
	if !v.fl.Changed("files0-from") {
		if len(files) == 0 {
			files = []string{"."}
		}
		cfg.hashAll = len(files) > 1 || cfg.deref == derefAll
		return files, 0, true
	}
	if len(files) > 0 {
		c.warn("extra operand %s", quote(files[0]))
		fmt.Fprintln(c.stderr, "file operands cannot be combined with --files0-from")
		return nil, c.tryHelp(), false
	}
	cfg.files0, cfg.hashAll = *v.files0, true
	data, err := c.readFiles0(cfg.files0)
	if err != nil {
		c.warn("%s", err)
		return nil, 1, false
	}
	if len(data) == 0 {
		return nil, 0, true
	}
	// Each name ends with a NUL; the last may end without one.
	names := strings.Split(string(data), "\x00")
	if data[len(data)-1] == 0 {
		names = names[:len(names)-1]
	}
	return names, 0, true
}

// readFiles0 reads --files0-from's file ("-": standard input), with du's
// words for a file that cannot be opened and for one that cannot be read
// (a directory).
func (c *command) readFiles0(name string) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(c.stdin)
		if err != nil {
			return nil, fmt.Errorf("-: read error: %s", strerror(err))
		}
		return data, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s for reading: %s", quote(name), strerror(err))
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: read error: %s", quotef(name), strerror(err))
	}
	return data, nil
}
