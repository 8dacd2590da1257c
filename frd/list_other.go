//go:build !linux && !darwin && !windows

package frd

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
)

// The portable fallback: the os package's listing and one lstat per regular
// file, by its full path.

type sysLister struct{}

func (l *Lister) appendFile(dst []Entry, f *os.File) ([]Entry, error) {
	if l.Rewind {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return dst, err
		}
	}
	des, rerr := f.ReadDir(-1)
	dst = grow(dst, len(des))
	for _, d := range des {
		e := Entry{Name: d.Name(), Type: d.Type()}
		if e.Type.IsRegular() && !l.Names {
			fi, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				l.vanish(e.Name)
				continue // removed since the read
			}
			if err != nil {
				if l.fail(err) {
					continue
				}
				return dst, err
			}
			fillInfo(&e, fi)
		}
		dst = append(dst, e)
	}
	return dst, rerr
}

// fillInfo sets e's type, and for a regular file its metadata, from fi.
func fillInfo(e *Entry, fi fs.FileInfo) {
	e.Type = fi.Mode().Type()
	if e.Type.IsRegular() {
		e.Size = fi.Size()
		e.ModTimeNanos = unixtime.FromTime(fi.ModTime())
		fillSys(e, fi)
	}
}

func (l *Lister) stat(entries []Entry, _ uintptr, dir string) ([]Entry, error) {
	kept := entries[:0]
	for _, e := range entries {
		if !e.Type.IsRegular() {
			kept = append(kept, e)
			continue
		}
		fi, err := os.Lstat(joinName(dir, e.Name))
		if errors.Is(err, fs.ErrNotExist) {
			l.vanish(e.Name)
			continue
		}
		if err != nil {
			if l.fail(err) {
				continue
			}
			return kept, err
		}
		e = Entry{Name: e.Name}
		fillInfo(&e, fi)
		kept = append(kept, e)
	}
	return kept, nil
}

func (l *Lister) appendHandle(dst []Entry, fd uintptr, name string) ([]Entry, error) {
	return dst, &os.PathError{Op: "readdir", Path: name, Err: errors.ErrUnsupported}
}

// appendPart is appendHandle's, unsupported here.
func (l *Lister) appendPart(dst []Entry, fd uintptr, name string) ([]Entry, bool, error) {
	dst, err := l.appendHandle(dst, fd, name)
	return dst, true, err
}
