package interactive

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/ignore"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
	"github.com/pbednarcik/flexreaddir/walk"
)

// ReadIgnore reads --ignore-from's file of gitignore patterns
// (internal/ignore), matched against paths below the directory scanned,
// as a .gitignore at its top is. The command reads it while it checks the
// flags, before any screen.
func ReadIgnore(name string) (func(rel string, isDir bool) bool, error) {
	m, err := ignore.Read(name)
	if err != nil {
		return nil, err
	}
	return func(rel string, isDir bool) bool { return m.Match(strings.Split(rel, "/"), isDir) }, nil
}

// scanOptions are a scan's options: du's, -e and the browser's exclusions.
func (r *run) scanOptions() dutree.ScanOptions {
	// A walk's options per scan: a rescan may run beside a scan.
	o := dutree.ScanOptions{Walk: func() *walk.Options { return r.Du.WalkOptions(false, nil) }}
	if r.Du.Exclude.HasPatterns() {
		o.Exclude = r.Du.Exclude.Excluded
	}
	o.Extended = r.Extended
	o.ExcludeCaches = r.ExcludeCaches
	o.ExcludeKernFS = r.ExcludeKernFS
	o.Ignore = r.Ignore
	return o
}

// canStream reports whether -o can write as it scans (dutree.Stream): not
// through links, nor with the exclusions only the tree's scan makes.
func (r *run) canStream() bool {
	return r.Du.Deref != du.DerefAll && !r.ExcludeCaches && !r.ExcludeKernFS && r.Ignore == nil
}

// scanQuietly scans dir for -o, each error reported as met; nil when dir
// could not be read.
func (r *run) scanQuietly(dir string) *dutree.Tree {
	t, errs, err := dutree.Scan(context.Background(), dir, r.scanOptions())
	for _, e := range errs {
		r.Error(scanError(e))
	}
	if err != nil {
		r.Error(message.CannotReadDir(dir, err))
		return nil
	}
	return t
}

// scanError is du's message for an error a scan met.
func scanError(e dutree.Error) string {
	var pe *os.PathError
	if errors.As(e.Err, &pe) && strings.HasPrefix(pe.Op, "open") {
		return message.CannotReadDir(e.Path, e.Err)
	}
	return message.CannotAccess(e.Path, e.Err)
}
