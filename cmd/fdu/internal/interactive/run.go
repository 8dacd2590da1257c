package interactive

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/age"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// Config is what the command line asks of -i, -o and -f.
type Config struct {
	// Du is the scan's options as du's report takes them: the walk's,
	// --exclude, -L, --time (only the modification time is kept) and
	// --apparent-size.
	Du *du.Config

	Dir    string // the directory to scan, unless Load or Disks
	Load   string // -f: the saved scan to read ("-": stdin), "" to scan Dir
	Export string // -o: where to write the scan ("-": stdout), "" to browse it
	Disks  bool   // --disks: scan the mount point picked from a list

	Extended                     bool                              // -e: keep owners, groups and modes
	ExcludeCaches, ExcludeKernFS bool                              // --exclude-caches, --exclude-kernfs
	Ignore                       func(rel string, isDir bool) bool // --ignore-from's patterns (ReadIgnore), nil without

	// The browser's own options.
	Age                                     *age.Filter
	ReadOnly, NoColor, NoMouse, ConfirmQuit bool
	Format                                  func(int64) string // a size as the browser shows it
}

// Streams are where a run reads and writes, and how it reports.
type Streams struct {
	Stdin io.Reader     // -f -
	Out   *bufio.Writer // stdout (-o -, the path q prints): the caller flushes it at the end
	// OutIsTerminal: Q's path on stdout is shown escaped, not for cd.
	OutIsTerminal bool
	// Warn reports what ends the run; Error a scan's error, after which
	// the run goes on and exits 1.
	Warn  func(format string, a ...any)
	Error func(msg string)
}

// Run runs -i, -o or -f as cfg asks and returns the exit status; the
// errors reported through st.Error are the caller's to add to it.
func Run(cfg *Config, st Streams) int {
	r := &run{Config: cfg, Streams: st}
	if cfg.Load == "" && !r.scannable(cfg.Dir) {
		return 1
	}
	if out := cfg.Export; out != "" && out != "-" {
		if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
			r.Warn("cannot write %s: %s", message.Quotef(out), message.Strerror(errOr(err, syscall.ENOTDIR)))
			return 1
		}
	}
	var tree *dutree.Tree
	imported := ""
	if cfg.Load != "" {
		t, err := r.load(cfg.Load)
		if err != nil {
			r.Warn("%s: %v", message.Quotef(cfg.Load), err)
			return 1
		}
		tree, imported = t, cfg.Load
	}
	if cfg.Export != "" {
		if tree == nil && !r.canStream() {
			if tree = r.scanQuietly(cfg.Dir); tree == nil {
				return 1
			}
		}
		if tree == nil {
			return r.streamExport(cfg.Dir, cfg.Export)
		}
		if err := r.export(cfg.Export, tree); err != nil {
			r.Warn("%s", message.FileError(cfg.Export, err))
			return 1
		}
		return 0 // the caller adds the scan's errors' status
	}
	return r.browse(tree, imported, cfg.Dir)
}

// run is one run of Run.
type run struct {
	*Config
	Streams
}

// scannable checks, before any screen or scan, that dir is a directory.
func (r *run) scannable(dir string) bool {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		r.Warn("%s", message.CannotAccess(dir, err))
	case !st.IsDir():
		r.Warn("cannot scan %s: Not a directory", message.Quote(dir))
	default:
		return true
	}
	return false
}

func errOr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// load reads the saved scan name ("-": stdin).
func (r *run) load(name string) (*dutree.Tree, error) {
	var in io.Reader = r.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, errors.New(message.Strerror(err))
		}
		defer f.Close()
		in = f
	}
	t, _, err := dutree.ReadWith(in, dutree.ReadOptions{Extended: r.Extended})
	return t, err
}
