package main

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sync"

	"github.com/pbednarcik/flexreaddir/cmd/internal/coldprocs"
	"github.com/pbednarcik/flexreaddir/frd"

	"github.com/pbednarcik/flexreaddir/walk"
)

// summable reports whether the run prints only each argument's total
// (-s, no -a, no -S): then nothing needs the tree, whose order only matters
// for the lines below the argument, and the walk just adds up. Not under
// -L: a directory two links lead to is walked once, through whichever the
// walk reaches first, and its errors are du's only if named where du's
// order meets it first, which the tree's report works out.
func summable(cfg *config) bool {
	return cfg.maxDepth == 0 && !cfg.all && !cfg.separateDirs && cfg.deref != derefAll
}

// sumDir walks the directory root and returns its total, counting each
// file with several links once through links. Errors are reported through
// errOut when the walk is over, in the order du meets them.
func (s *scanner) sumDir(ctx context.Context, root string, links *walk.LinkSet, errOut func(string)) (usage, bool) {
	var (
		mu      sync.Mutex
		total   usage
		counted = true
		errs    []duError
		moved   []string
	)
	report := func(path, msg string) {
		mu.Lock()
		errs = append(errs, duError{path, msg})
		mu.Unlock()
	}
	defer func() {
		// The walk meets errors in no fixed order: du's, at the end.
		sortErrors(root, errs)
		for _, e := range errs {
			errOut(e.msg)
		}
		if len(moved) > 0 {
			// du stops at the first it meets: the argument prints no line,
			// and no later argument is walked.
			errOut(movedError(slices.Min(moved)))
			s.moved = true
		}
	}()
	opts := &walk.Options{
		Workers:        s.cfg.jobs,
		IOWorkers:      coldprocs.Extra(s.cfg.jobs),
		OnIOWorkers:    coldprocs.Hook(),
		OneFileSystem:  s.cfg.oneFS,
		FollowSymlinks: s.cfg.deref == derefAll,
		StatAll:        true,
		Reuse:          true, // nothing here keeps a name or a Dir
		Batches:        true, // a huge directory is counted a buffer at a time
		DetectMoves:    true,
		ReportVanished: true,
		OnError: func(e *walk.Error) error {
			if errors.Is(e.Err, walk.ErrLoop) {
				return nil // under -L, du leaves a cycle out without a word
			}
			if errors.Is(e.Err, walk.ErrMoved) {
				mu.Lock()
				moved = append(moved, e.Path)
				mu.Unlock()
				return nil
			}
			if e.Dir != nil && e.Path == e.Dir.Path {
				if e.Dir.Data == nil { // not opened: count its own size, as du does
					st, ok := lstatUsage(s, e.Path)
					if ok && s.cfg.hashAll && !s.cfg.countLinks && links.Seen(st.dev, st.ino) {
						// Counted already, under an earlier argument.
						if e.Dir.Parent == nil {
							counted = false
						}
						return nil
					}
					if ok {
						mu.Lock()
						total.add(st.use)
						mu.Unlock()
					}
				}
				msg := "cannot read directory " + quote(e.Path) + ": " + strerror(e.Err)
				if e.Dir.Parent != nil && errors.Is(e.Err, fs.ErrPermission) && !canStat(e.Path) {
					msg = s.accessError(e) // not even stat'able, as scan.go's onError says
				}
				report(e.Path, msg)
				return nil
			}
			// An entry that cannot be stat'ed: the walk leaves it out, and
			// du does not count it either.
			report(e.Path, s.accessError(e))
			return nil
		},
	}
	err := walk.Dirs(ctx, root, opts, func(d *walk.Dir) error {
		var local usage
		if d.Batch == 0 { // the directory itself, with its first part
			d.Data = true
			if s.cfg.hashAll && !s.cfg.countLinks && links.Seen(d.Info.Device, d.Info.FileID) {
				if d.Parent == nil {
					counted = false
				}
				return fs.SkipDir
			}
			local = s.entryUsage(&d.Info, d)
		}
		listed := len(d.Entries)
		s.entries(d, func(*frd.Entry) {},
			func(e *frd.Entry, path string) {
				if s.hashed(e) && !s.cfg.countLinks && links.Seen(e.Device, e.FileID) {
					return
				}
				local.add(s.entryUsage(e, d))
			})
		s.progress.add(listed, local.size)
		mu.Lock()
		total.add(local)
		mu.Unlock()
		return nil
	})
	if len(moved) > 0 {
		return total, false
	}
	if err != nil && total.inodes == 0 && counted {
		return total, false
	}
	return total, counted
}
