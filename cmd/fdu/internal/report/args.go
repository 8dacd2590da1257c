package report

import (
	"context"
	"errors"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// output reads the command line's arguments one after another: du's
// report, or a view.
type output interface {
	done() bool // du stopped at a directory moved while walked: nothing more is read
	fileArg(a du.Arg)
	dirArg(ctx context.Context, a du.Arg)
}

// eachArg hands each argument to o as du takes them: one du refuses or
// could not stat is reported, an excluded one left out, and the others
// are a file or a directory.
func eachArg(ctx context.Context, s *du.Scanner, args []du.Arg, errOut func(string), o output) {
	for _, a := range args {
		switch {
		case o.done() || s.Stopped():
			return
		case a.Refused != "":
			errOut(a.Refused)
		case s.Config().Exclude.Excluded(a.Path):
		case a.Err != nil:
			errOut(s.ArgError(a))
		case !a.Stat.IsDir:
			o.fileArg(a)
		default:
			o.dirArg(ctx, a)
		}
	}
}

// scanArg scans the directory argument a. A root the walk never reached
// counts as an unreadable directory of the size its stat said.
func scanArg(ctx context.Context, s *du.Scanner, a du.Arg, errOut func(string)) *du.Dir {
	tree, err := s.Scan(ctx, a.Path)
	if tree.State() == du.Unreached {
		if err != nil && !errors.Is(err, context.Canceled) {
			errOut(message.CannotReadDir(a.Path, err))
		}
		tree.MarkUnreadable(a.Stat)
	}
	return tree
}
