package report

import (
	"bufio"
	"context"
	"errors"
	"strconv"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// Du prints du's report of the arguments, scanned by s: each one's lines
// in GNU du's order and format (depth first, each directory after its
// contents, entries in the order du reads them), and under -c the total.
func Du(ctx context.Context, cfg *Config, s *du.Scanner, args []du.Arg, out *bufio.Writer, msgs Messages) {
	r := &reporter{cfg: cfg, du: s.Config(), s: s, out: out, msgs: msgs, once: newOnce(s.Config())}
	eachArg(ctx, s, args, msgs.Error, r)
	if cfg.Total {
		r.line(r.grand, "total")
	}
}

// reporter prints the arguments' lines.
type reporter struct {
	cfg   *Config
	du    *du.Config
	s     *du.Scanner
	out   *bufio.Writer
	msgs  Messages
	once  once
	order du.ErrorOrder // directories listed again to place their entries' errors
	grand du.Usage      // everything counted, for -c
	// stopped is set at a directory moved during the walk: du's fts fails
	// there, and du prints nothing more but the total.
	stopped bool
	// rb renames the errors of a directory walked under another path than
	// the one du meets it by (-L: two links to it).
	rb rebase
	// live is the scan read as it runs (du.Live), nil when read whole.
	live *du.Live
	// path is the path of the directory being reported, or of a file
	// under -a (dirAt).
	path []byte
}

// liveDir reports the directory argument a as it is scanned: a line is
// printed once du's order reaches it and the walk has read what it sums,
// and what is printed is let go, so that the report holds the directories
// between the walk and the printing, not the tree.
func (r *reporter) liveDir(ctx context.Context, a du.Arg) {
	tree, live := r.s.ScanLive(ctx, a.Path)
	defer live.Stop()
	live.WaitListed(tree, nil)
	if tree.State() == du.Unreached { // the walk never read it: it is over
		if err := live.Wait(); err != nil && !errors.Is(err, context.Canceled) {
			r.msgs.Error(message.CannotReadDir(a.Path, err))
		}
		tree.MarkUnreadable(a.Stat)
	}
	r.live = live
	r.dir(tree, nil, a.Path, 0)
	r.live = nil
}

func (r *reporter) done() bool { return r.stopped }

// fileArg reports a command-line argument that is not a directory.
func (r *reporter) fileArg(a du.Arg) {
	if !r.once.countsArg(a.Stat) {
		return
	}
	r.grand.Add(a.Stat.Use)
	r.print(a.Stat.Use, a.Path)
}

// dirArg reports a directory argument: its total alone when that is all
// du prints of it, else its tree.
func (r *reporter) dirArg(ctx context.Context, a du.Arg) {
	if !r.du.Summable() && r.du.Streams() {
		r.liveDir(ctx, a)
		return
	}
	if !r.du.Summable() {
		r.dir(scanArg(ctx, r.s, a, r.msgs.Error), nil, a.Path, 0)
		return
	}
	if total, ok := r.s.Sum(ctx, a.Path, r.once.links, r.msgs.Error); ok {
		r.grand.Add(total)
		r.print(total, a.Path)
	}
}

func (r *reporter) print(u du.Usage, path string) {
	if r.above(u) {
		r.line(u, path)
	}
}

// printBytes is print for a path in r.path: -a prints a line per file
// without making a string of each.
func (r *reporter) printBytes(u du.Usage, path []byte) {
	if r.above(u) {
		r.head(u)
		r.out.Write(path)
		r.end()
	}
}

// above reports whether u passes --threshold: at least t, or for a
// negative t at most -t.
func (r *reporter) above(u du.Usage) bool {
	v, t := r.value(u), r.cfg.Threshold
	if t < 0 {
		return v <= uint64(-t)
	}
	return v >= uint64(t)
}

// value is what a line shows of u: bytes, or inodes under --inodes.
func (r *reporter) value(u du.Usage) uint64 {
	if r.cfg.Inodes {
		return u.Inodes
	}
	return u.Size
}

// line prints a line whatever the threshold, as du prints its total.
func (r *reporter) line(u du.Usage, path string) {
	r.head(u)
	r.out.WriteString(path)
	r.end()
}

// head writes a line's size, and time under --time, up to its path.
func (r *reporter) head(u du.Usage) {
	r.out.WriteString(r.cfg.Unit.Format(r.value(u)))
	if r.du.ShowTime {
		r.out.WriteByte('\t')
		r.out.WriteString(r.formatTime(u.TMax))
	}
	r.out.WriteByte('\t')
}

// end ends a line: NUL under -0.
func (r *reporter) end() {
	if r.cfg.Null {
		r.out.WriteByte(0)
	} else {
		r.out.WriteByte('\n')
	}
}

// formatTime is s as --time shows it, or its seconds and a warning, as du
// prints a time localtime cannot convert.
func (r *reporter) formatTime(s units.Stamp) string {
	if t, ok := s.Civil(r.cfg.Loc); ok {
		return units.Strftime(r.cfg.TimeFormat, t)
	}
	secs := strconv.FormatInt(s.Seconds(), 10)
	r.msgs.Note(message.TimeOutOfRange(secs))
	return secs
}
