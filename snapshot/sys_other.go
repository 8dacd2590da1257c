//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package snapshot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"github.com/pbednarcik/flexreaddir/walk"
)

// Windows and the systems without a descriptor-relative listing here work
// by path: a directory is a path, each entry an os.Lstat. There is no
// change time or file id, so a same-size rewrite that keeps the
// modification time is not seen (not verified on these systems).

// dirFile is a directory by its path; fd is unused.
type dirFile struct {
	fd   int
	path string
}

func openRoot(path string) (dirFile, error) {
	fi, err := os.Stat(path)
	if err == nil && !fi.IsDir() {
		err = &os.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
	}
	return dirFile{-1, path}, err
}

func closeDir(dirFile) {}

// openRel checks that each element of rel below root is a directory, not
// a link to one.
func openRel(root dirFile, rel string) (dirFile, error) {
	p := root.path
	for _, name := range strings.Split(rel, "/") {
		p = joinPath(p, name)
		fi, err := os.Lstat(p)
		if err != nil {
			return dirFile{-1, p}, err
		}
		if !fi.IsDir() {
			return dirFile{-1, p}, &os.PathError{Op: "open", Path: p, Err: syscall.ENOTDIR}
		}
	}
	return dirFile{-1, p}, nil
}

func statSelf(d dirFile) (Entry, error) {
	fi, err := os.Lstat(d.path)
	if err != nil {
		return Entry{}, err
	}
	return fromInfo(fi), nil
}

func statAt(d dirFile, name string, keys Keys) (Entry, error) {
	p := joinPath(d.path, name)
	fi, err := os.Lstat(p)
	if err != nil {
		return Entry{}, err
	}
	x := fromInfo(fi)
	x.Name = name
	if x.Type == fs.ModeSymlink && keys&KeyTarget != 0 {
		if x.Target, err = os.Readlink(p); err != nil {
			return x, err
		}
		x.Size = int64(len(x.Target))
	}
	return x, nil
}

func fromInfo(fi fs.FileInfo) Entry {
	m := fi.Mode()
	x := Entry{
		Type:    m.Type(),
		Perm:    m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky),
		Size:    fi.Size(),
		ModTime: unixtime.FromTime(fi.ModTime()),
	}
	if x.Type.IsDir() {
		x.Size = 0
	}
	return x
}

func listNames(_ *frd.Lister, d dirFile, dst []frd.Entry) ([]frd.Entry, error) {
	des, err := os.ReadDir(d.path)
	for _, de := range des {
		dst = append(dst, frd.Entry{Name: de.Name(), Type: de.Type()})
	}
	return dst, err
}

func openFileAt(d dirFile, name string) (*os.File, error) {
	p := joinPath(d.path, name)
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return nil, errors.Join(err, errors.New("not a regular file"))
	}
	return os.Open(p)
}

func statFile(f *os.File) (Entry, error) {
	fi, err := f.Stat()
	if err != nil {
		return Entry{}, err
	}
	return fromInfo(fi), nil
}

func joinPath(dir, name string) string { return dirfd.Join(dir, filepath.FromSlash(name)) }

// walkDir is the directory a walk is in.
func walkDir(d *walk.Dir) dirFile { return dirFile{-1, d.Path} }

// planWorkers: no descriptors to plan for.
func planWorkers(n int) (int, func()) { return n, func() {} }
