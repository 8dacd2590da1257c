package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/age"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/interactive"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/report"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
)

// helpText is --help's text, naming the program as it was run.
func helpText() string {
	return strings.ReplaceAll(usageText, "fdu [OPTION]", message.Prog+" [OPTION]")
}

// versionText is --version's: its first line names fdu whatever argv[0]
// is, as du's names du.
func versionText() string {
	return version.Text("fdu", "A parallel du on the frd lister: https://github.com/pbednarcik/flexreaddir")
}

// config is what the command line and the environment ask for.
type config struct {
	du        du.Config           // the scans
	report    report.Config       // what is printed, and how
	summarize bool                // -s, which sets du.MaxDepth
	browse    *interactive.Config // -i, -o or -f: the browser instead of a report; nil without
	files0    string              // --files0-from's file, for messages
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

// newFlags defines du's options, and fdu's, on cfg.
func newFlags(cfg *config) *flagValues {
	fl := pflag.NewFlagSet(message.Prog, pflag.ContinueOnError)
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
	fl.BoolVarP(&cfg.du.All, "all", "a", false, "")
	fl.BoolVar(&cfg.du.Apparent, "apparent-size", false, "")
	boolFlag("bytes", "b", func() { cfg.du.Apparent = true; cfg.report.Unit = units.BlockSize{Size: 1} })
	fl.VarP(&orderedFlag{set: func(s string) error {
		b, err := units.ParseBlockSize(s)
		if err == nil {
			cfg.report.Unit = b
		} else if v.badBlockErr == nil {
			v.badBlockSize, v.badBlockErr = s, err
		}
		return nil // reported after parsing, in du's words
	}}, "block-size", "B", "")
	fl.BoolVarP(&cfg.report.Total, "total", "c", false, "")
	v.depth = fl.StringP("max-depth", "d", "", "")
	boolFlag("human-readable", "h", func() { cfg.report.Unit = units.Human() })
	boolFlag("si", "", func() { cfg.report.Unit = units.HumanSI() })
	boolFlag("kibibytes", "k", func() { cfg.report.Unit = units.BlockSize{Size: 1024} })
	boolFlag("mebibytes", "m", func() { cfg.report.Unit = units.BlockSize{Size: 1 << 20} })
	fl.BoolVarP(&cfg.summarize, "summarize", "s", false, "")
	fl.BoolVarP(&cfg.du.SeparateDirs, "separate-dirs", "S", false, "")
	fl.BoolVarP(&cfg.du.OneFS, "one-file-system", "x", false, "")
	boolFlag("dereference", "L", func() { cfg.du.Deref = du.DerefAll })
	boolFlag("no-dereference", "P", func() { cfg.du.Deref = du.DerefNone })
	boolFlag("dereference-args", "D", func() { cfg.du.Deref = du.DerefArgs })
	boolFlag("H", "H", func() { cfg.du.Deref = du.DerefArgs })
	fl.BoolVarP(&cfg.du.CountLinks, "count-links", "l", false, "")
	fl.BoolVar(&cfg.report.Inodes, "inodes", false, "")
	v.threshold = fl.StringP("threshold", "t", "", "")
	v.excludes = fl.StringArray("exclude", nil, "")
	v.excludeFrom = fl.StringArrayP("exclude-from", "X", nil, "")
	fl.BoolVarP(&cfg.report.Null, "null", "0", false, "")
	v.files0 = fl.String("files0-from", "", "")
	v.timeWord = fl.String("time", "", "")
	fl.Lookup("time").NoOptDefVal = units.BareTime
	v.timeStyle = fl.String("time-style", "", "")
	fl.IntVarP(&cfg.du.Jobs, "threads", "j", runtime.GOMAXPROCS(0), "")
	v.tree = fl.Bool("tree", false, "")
	v.asJSON = fl.Bool("json", false, "")
	fl.IntVar(&cfg.report.Largest, "largest", 0, "")
	fl.IntVar(&cfg.report.Depth, "depth", 3, "")
	fl.IntVar(&cfg.report.Top, "top", 10, "")
	v.progress = fl.String("progress", "auto", "")
	v.browse = browseFlags{
		interactive:   fl.BoolP("interactive", "i", false, ""),
		export:        fl.StringP("output-file", "o", "", ""),
		load:          fl.StringP("input-file", "f", "", ""),
		readOnly:      fl.Bool("read-only", false, ""),
		noColor:       fl.Bool("no-color", false, ""),
		noMouse:       fl.Bool("no-mouse", false, ""),
		confirmQuit:   fl.Bool("confirm-quit", false, ""),
		maxAge:        fl.String("max-age", "", ""),
		minAge:        fl.String("min-age", "", ""),
		since:         fl.String("since", "", ""),
		until:         fl.String("until", "", ""),
		extended:      fl.BoolP("extended", "e", false, ""),
		excludeCaches: fl.Bool("exclude-caches", false, ""),
		excludeKernFS: fl.Bool("exclude-kernfs", false, ""),
		ignoreFrom:    fl.String("ignore-from", "", ""),
		disks:         fl.Bool("disks", false, ""),
	}
	v.help = fl.Bool("help", false, "")
	v.version = fl.Bool("version", false, "")
	// -H, -k and -m are short options only: their long names are the
	// parser's, unknown to getopt's table (duLongOptions), and hidden.
	for _, name := range []string{"H", "kibibytes", "mebibytes"} {
		fl.Lookup(name).Hidden = true
	}
	return v
}

// parse reads the command line into a config and the files to scan. When
// ok is false the run is over, with code.
func (c *command) parse(args []string) (cfg *config, files []string, code int, ok bool) {
	cfg = &config{du: du.Config{MaxDepth: math.MaxInt, TimeType: "mtime"}, report: report.Config{Unit: units.DefaultBlockSize()}}
	v := newFlags(cfg)
	v.args = args
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
		c.warn("%s", units.SizeMessage(v.badBlockErr, optionAsGiven(args, "-B", "--block-size"), v.badBlockSize))
		return nil, nil, 1, false
	}
	if *v.version {
		fmt.Fprint(c.out, versionText())
		return nil, nil, 0, false
	}
	for _, step := range []func(*config, *flagValues) (int, bool){c.sizes, c.excludes, c.modes, c.times, c.pickView, c.browseMode, c.progressLine} {
		if code, ok := step(cfg, v); !ok {
			return nil, nil, code, false
		}
	}
	files, code, ok = c.fileList(cfg, v)
	if ok && cfg.browse != nil {
		code, ok = c.browseOperands(cfg, v, files)
	}
	return cfg, files, code, ok
}

// sizes applies --max-depth and --threshold.
func (c *command) sizes(cfg *config, v *flagValues) (int, bool) {
	if v.fl.Changed("max-depth") {
		n, err := strconv.ParseUint(*v.depth, 10, 63)
		if err != nil {
			c.warn("%s", message.InvalidMaxDepth(*v.depth))
			return c.tryHelp(), false
		}
		cfg.du.MaxDepth = int(n)
	}
	if v.fl.Changed("threshold") {
		t, err := units.ParseThreshold(*v.threshold)
		if err != nil {
			c.warn("%s", units.SizeMessage(err, optionAsGiven(v.args, "-t", "--threshold"), *v.threshold))
			return 1, false
		}
		cfg.report.Threshold = t
	}
	return 0, true
}

// excludes reads --exclude and --exclude-from.
func (c *command) excludes(cfg *config, v *flagValues) (int, bool) {
	cfg.du.Exclude.UTF8 = func() bool { return c.charset().UTF8 }
	for _, p := range *v.excludes {
		cfg.du.Exclude.Add(p)
	}
	for _, f := range *v.excludeFrom {
		if err := cfg.du.Exclude.AddFile(f, c.stdin); err != nil {
			c.warn("%s", message.FileError(f, err))
			return c.tryHelp(), false
		}
	}
	return 0, true
}

// modes checks the options that rule each other out or change others.
func (c *command) modes(cfg *config, v *flagValues) (int, bool) {
	if cfg.du.All && cfg.summarize {
		c.warn("%s", message.SummarizeAndAll)
		return c.tryHelp(), false
	}
	if cfg.summarize && v.fl.Changed("max-depth") {
		if cfg.du.MaxDepth != 0 {
			c.warn("%s", message.SummarizeConflicts(cfg.du.MaxDepth))
			return c.tryHelp(), false
		}
		c.warn("%s", message.SummarizeIsDepthZero)
	}
	if cfg.summarize {
		cfg.du.MaxDepth = 0
	}
	if cfg.report.Inodes {
		if cfg.du.Apparent {
			c.warn("%s", message.ApparentWithInodes)
		}
		cfg.report.Unit.Size = 1 // counts, still in -h's or --si's form if asked
	}
	cfg.du.Jobs = max(cfg.du.Jobs, 1)
	return 0, true
}

// times applies --time and --time-style.
func (c *command) times(cfg *config, v *flagValues) (int, bool) {
	if !v.fl.Changed("time") {
		return 0, true
	}
	tt, err := units.TimeType(*v.timeWord)
	if err != nil {
		return c.argError(err), false
	}
	cfg.du.TimeType, cfg.du.ShowTime = tt, true
	f, err := units.TimeFormat(*v.timeStyle, v.fl.Changed("time-style"))
	if err != nil {
		return c.argError(err), false
	}
	cfg.report.TimeFormat = f
	cfg.report.Loc = units.LocalZone()
	return 0, true
}

// argError reports an argument none of an option's words match, with
// the words, as du's argmatch does.
func (c *command) argError(err error) int {
	c.warn("%v", err)
	if e, ok := err.(*units.ArgError); ok {
		fmt.Fprint(c.stderr, e.Valid)
	}
	return c.tryHelp()
}

// pickView picks fdu's own view (--tree, --json, --largest), if one is
// asked for.
func (c *command) pickView(cfg *config, v *flagValues) (int, bool) {
	largest := cfg.report.Largest > 0
	switch {
	case *v.tree && *v.asJSON, *v.tree && largest, *v.asJSON && largest:
		c.warn("--tree, --json and --largest are different views: choose one")
		return c.tryHelp(), false
	case *v.tree:
		cfg.report.View = report.TreeView
	case *v.asJSON:
		cfg.report.View = report.JSONView
	case largest:
		cfg.report.View = report.LargestView
	}
	if cfg.report.View == "" {
		return 0, true
	}
	if opt := unsupportedInView(cfg, v); opt != "" {
		c.warn("--%s does not take %s", cfg.report.View, opt)
		return c.tryHelp(), false
	}
	cfg.du.KeepFiles = true
	cfg.du.MaxDepth = math.MaxInt // views need every level
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
	case cfg.report.Total:
		return "-c"
	case changed("threshold"):
		return "-t"
	case cfg.du.ShowTime:
		return "--time"
	case cfg.report.View == report.TreeView && cfg.du.SeparateDirs:
		return "-S"
	case cfg.report.View == report.LargestView && cfg.report.Null:
		return "-0"
	case cfg.report.View == report.JSONView && changed("block-size", "human-readable", "si", "kibibytes", "mebibytes"):
		return "a unit (-B, -h, --si, -k, -m): it writes bytes"
	}
	return ""
}

// browseFlags are fdu's interactive options, which du does not have.
type browseFlags struct {
	interactive, readOnly, noColor, noMouse, confirmQuit *bool
	export, load                                         *string
	maxAge, minAge, since, until                         *string
	// -e, --exclude-caches, --exclude-kernfs, --ignore-from, --disks
	extended, excludeCaches, excludeKernFS, disks *bool
	ignoreFrom                                    *string
}

// browseMode checks the interactive options, and reads --ignore-from's
// file before any screen: -i browses a scan, -o exports one (or the file
// -f reads), -f browses a saved one.
func (c *command) browseMode(cfg *config, v *flagValues) (int, bool) {
	bf := v.browse
	if !*bf.interactive && *bf.export == "" && *bf.load == "" {
		if *bf.readOnly || *bf.noColor || *bf.noMouse || *bf.confirmQuit || *bf.disks || ageGiven(bf) {
			c.warn("--read-only, --no-color, --no-mouse, --confirm-quit, --disks and the age filters go with -i or -f")
			return c.tryHelp(), false
		}
		if opt := firstChanged(v, browserOnly); opt != "" {
			c.warn("%s goes with -i, -o or -f", opt)
			return c.tryHelp(), false
		}
		return 0, true
	}
	f, err := age.Parse(*bf.maxAge, *bf.minAge, *bf.since, *bf.until, time.Now(), time.Local)
	if err != nil {
		c.warn("%v", err)
		return c.tryHelp(), false
	}
	if f.Active() && *bf.export != "" {
		c.warn("the age filters are the browser's: -o writes the whole scan")
		return c.tryHelp(), false
	}
	b := &interactive.Config{
		Du: &cfg.du, Load: *bf.load, Export: *bf.export, Disks: *bf.disks,
		Extended: *bf.extended, ExcludeCaches: *bf.excludeCaches, ExcludeKernFS: *bf.excludeKernFS,
		Age: f, ReadOnly: *bf.readOnly, NoColor: *bf.noColor, NoMouse: *bf.noMouse, ConfirmQuit: *bf.confirmQuit,
		Format: sizeFormat(cfg, v),
	}
	if name := *bf.ignoreFrom; name != "" {
		if b.Ignore, err = interactive.ReadIgnore(name); err != nil {
			c.warn("%s", message.FileError(name, err))
			return 1, false
		}
	}
	if cfg.report.View != "" {
		c.warn("-i, -o and -f are not --%s: choose one", cfg.report.View)
		return c.tryHelp(), false
	}
	if opt := firstChanged(v, notInBrowser); opt != "" {
		c.warn("-i, -o and -f do not take %s", opt)
		return c.tryHelp(), false
	}
	if cfg.du.ShowTime && cfg.du.TimeType != "mtime" {
		c.warn("-i, -o and -f do not take --time=%s (only the modification time is kept)", cfg.du.TimeType)
		return c.tryHelp(), false
	}
	cfg.browse = b
	return 0, true
}

// ageGiven reports whether an age filter was given.
func ageGiven(bf browseFlags) bool {
	return *bf.maxAge != "" || *bf.minAge != "" || *bf.since != "" || *bf.until != ""
}

// optionName is a flag's name in the parser and as a message gives it.
type optionName struct{ flag, name string }

// browserOnly are the browser's scan options: du's report mirrors GNU du,
// which has none of them.
var browserOnly = []optionName{
	{"extended", "-e"}, {"exclude-caches", "--exclude-caches"}, {"exclude-kernfs", "--exclude-kernfs"},
	{"ignore-from", "--ignore-from"},
}

// notInBrowser are du's options the browser does not honour.
var notInBrowser = []optionName{
	{"all", "-a"}, {"summarize", "-s"}, {"total", "-c"}, {"max-depth", "-d"}, {"threshold", "-t"},
	{"separate-dirs", "-S"}, {"count-links", "-l"}, {"inodes", "--inodes"}, {"null", "-0"},
	{"files0-from", "--files0-from"}, {"dereference-args", "-D"}, {"H", "-H"},
}

// firstChanged names the first of opts given, or is "".
func firstChanged(v *flagValues, opts []optionName) string {
	for _, o := range opts {
		if v.fl.Changed(o.flag) {
			return o.name
		}
	}
	return ""
}

// sizeFormat is how the browser shows a size: ncdu's units, unless a du
// unit option (-B, -k, -m) asks for its numbers.
func sizeFormat(cfg *config, v *flagValues) func(int64) string {
	switch {
	case v.fl.Changed("si"):
		return func(n int64) string { return browse.Human(n, true) }
	case v.fl.Changed("block-size") || v.fl.Changed("kibibytes") || v.fl.Changed("mebibytes") || v.fl.Changed("bytes"):
		return func(n int64) string { return cfg.report.Unit.Format(uint64(max(n, 0))) }
	}
	return func(n int64) string { return browse.Human(n, false) }
}

// browseOperands checks the operands of -i, -o and -f (one directory to
// scan; none with -f or --disks) before any screen or scan.
func (c *command) browseOperands(cfg *config, v *flagValues, files []string) (int, bool) {
	b := cfg.browse
	switch {
	case b.Load != "" && len(v.fl.Args()) > 0:
		c.warn("-f reads a saved scan: extra operand %s", message.Quote(files[0]))
	case b.Disks && (b.Load != "" || b.Export != "" || len(v.fl.Args()) > 0):
		c.warn("--disks chooses the directory to scan: no -f, -o or operand")
	case b.Load == "" && len(files) > 1:
		c.warn("-i and -o scan one directory: extra operand %s", message.Quote(files[1]))
	default:
		b.Dir = files[0]
		return 0, true
	}
	return c.tryHelp(), false
}

// progressLine starts the progress line on stderr, if asked for.
func (c *command) progressLine(cfg *config, v *flagValues) (int, bool) {
	if cfg.browse != nil {
		return 0, true // the browser shows its own
	}
	switch *v.progress {
	case "auto", "always":
		if *v.progress == "always" || isTerminal(c.stderr) {
			c.progress = report.StartProgress(c.stderr, cfg.report.Unit, time.Second, 250*time.Millisecond)
		}
	case "never":
	default:
		c.warn("%s", message.InvalidArgument(*v.progress, "--progress"))
		return c.tryHelp(), false
	}
	return 0, true
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fileList is the files to scan: the operands, or --files0-from's names.
func (c *command) fileList(cfg *config, v *flagValues) ([]string, int, bool) {
	files := v.fl.Args()
	if !v.fl.Changed("files0-from") {
		if len(files) == 0 {
			files = []string{"."}
		}
		cfg.du.HashAll = len(files) > 1 || cfg.du.Deref == du.DerefAll
		return files, 0, true
	}
	if len(files) > 0 {
		c.warn("%s", message.ExtraOperand(files[0]))
		fmt.Fprintln(c.stderr, message.FilesWithFiles0)
		return nil, c.tryHelp(), false
	}
	cfg.files0, cfg.du.HashAll = *v.files0, true
	names, err := du.ReadFiles0(cfg.files0, c.stdin)
	if err != nil {
		c.warn("%s", err)
		return nil, 1, false
	}
	return names, 0, true
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
