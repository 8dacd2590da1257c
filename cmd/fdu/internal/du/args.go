package du

import (
	"errors"
	"io/fs"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/frd"
)

// Arg is one command-line file and what a stat of it said, or why du
// refuses it without a stat (Refused, its message).
type Arg struct {
	Path    string
	Stat    Stat
	Err     error
	Refused string
}

// Stat is what du reads of a file it stats by path: a command-line
// argument, or a directory it cannot open.
type Stat struct {
	Use      Usage
	Dev, Ino uint64
	IsDir    bool
	Nlink    uint64
}

// StatArgs stats the files named on the command line (or in files0, the
// --files0-from file). The names du refuses, an empty one and "-" read
// from stdin, keep their place among the others: du says so when it
// reaches them.
func (s *Scanner) StatArgs(files []string, files0 string) []Arg {
	var args []Arg
	for i, f := range files {
		switch {
		case f == "-" && files0 == "-":
			args = append(args, Arg{Path: f, Refused: message.DashFromStdin})
		case f == "":
			args = append(args, Arg{Refused: message.EmptyFileName(files0, i+1)})
		default:
			args = append(args, s.arg(trimSlashes(f)))
		}
	}
	return args
}

// trimSlashes trims a run of trailing slashes to one, as fts_open does
// with each name du gives it ("d//" is "d/", "///" is "/"), but leaves
// "//" alone.
func trimSlashes(path string) string {
	n := len(path)
	if n > 2 && path[n-1] == '/' {
		for n > 1 && path[n-2] == '/' {
			n--
		}
	}
	return path[:n]
}

// arg stats the command-line file path, following a symbolic link
// under -L, -H and -D. A file that is not a directory is remembered: met
// again inside a directory argument, it counts once.
func (s *Scanner) arg(path string) Arg {
	st, err := stat(s.cfg, path, s.cfg.Deref != DerefNone)
	if err == nil && !st.IsDir {
		s.argIDs[frd.ID{Dev: st.Dev, Ino: st.Ino}] = true
	}
	return Arg{Path: path, Stat: st, Err: err}
}

// ArgError is du's message for a command-line argument that could not be
// stat'ed: a dangling symbolic link followed (-L, -H, -D) says no more, as
// fts reports it.
func (s *Scanner) ArgError(a Arg) string {
	if s.cfg.Deref != DerefNone && errors.Is(a.Err, fs.ErrNotExist) {
		if _, ok := lstat(s.cfg, a.Path); ok {
			return message.CannotAccessDangling(a.Path)
		}
	}
	return message.CannotAccess(a.Path, a.Err)
}
