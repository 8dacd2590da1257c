//go:build freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"errors"
	"io/fs"
	"os"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// The BSDs have no bulk listing in frd: the names come from the os
// package's reading of a duplicate of the descriptor (which shares its
// offset), and each regular file is stat'ed relative to the descriptor,
// never by its path.

// perWorker is the most descriptors one worker holds at once: the
// directory it lists and its duplicate, or one more while it finds a
// directory again.
const perWorker = 3

func listHandle(l *frd.Lister, dst []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	dup, err := dirfd.Retry(func() (int, error) { return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0) })
	if err != nil {
		return dst, &os.PathError{Op: "dup", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(dup), path)
	// The names alone, by a Lister of their own: l's stats would be by path.
	names := frd.Lister{Names: true, ReuseNames: l.ReuseNames}
	start := len(dst)
	dst, err = names.AppendDir(dst, f)
	f.Close()
	if err != nil || l.Names {
		return dst, err
	}
	kept, err := statEntries(l, dst[start:], fd, path)
	return dst[:start+len(kept)], err
}

func statEntries(l *frd.Lister, entries []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	kept := entries[:0]
	for _, e := range entries {
		if e.Type.IsRegular() {
			st, err := dirfd.Fstatat(fd, path, e.Name, false)
			if errors.Is(err, fs.ErrNotExist) {
				if l.Vanished != nil {
					l.Vanished(e.Name)
				}
				continue // removed since the listing
			}
			if err != nil {
				if l.Failed != nil {
					l.Failed(err) // left out, the rest stat'ed
					continue
				}
				return kept, err
			}
			name := e.Name
			e = dirfd.Entry(&st)
			e.Name = name
			if !e.Type.IsRegular() {
				e = frd.Entry{Name: name, Type: e.Type}
			}
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// listPartHandle reads the whole directory as its one part.
func listPartHandle(l *frd.Lister, dst []frd.Entry, fd handle, path string) ([]frd.Entry, bool, error) {
	dst, err := listHandle(l, dst, fd, path)
	return dst, true, err
}
