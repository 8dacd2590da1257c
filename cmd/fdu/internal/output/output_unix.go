//go:build unix

package output

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// The file system's part of writing an export: through the target's
// directory, opened once, so that what is written and renamed is in that
// directory whatever is renamed meanwhile, and never through a link.

// mayFollow refuses to follow the symbolic link name where the kernel's
// fs.protected_symlinks would: in a sticky, world-writable directory,
// unless the link is the follower's or the directory owner's.
func mayFollow(name string) error {
	var link, dir unix.Stat_t
	if err := unix.Lstat(name, &link); err != nil {
		return err
	}
	if err := unix.Stat(filepath.Dir(name), &dir); err != nil {
		return err
	}
	sticky := dir.Mode&unix.S_ISVTX != 0 && dir.Mode&0o002 != 0
	if sticky && link.Uid != uint32(unix.Geteuid()) && link.Uid != dir.Uid {
		return &fs.PathError{Op: "follow", Path: name, Err: errors.New("a symbolic link of another user's in a sticky directory that everyone may write: not followed (as fs.protected_symlinks)")}
	}
	return nil
}

// mayWrite refuses to write over st, the file path names in the open
// directory dir, where the kernel's fs.protected_regular and
// protected_fifos refuse an O_CREAT open of it: in a sticky directory that
// everyone may write, a file or FIFO that is neither the writer's nor the
// directory owner's. Another user's file made beforehand under the name
// root exports to in /tmp would otherwise receive root's scan.
func mayWrite(dir int, path string, st *unix.Stat_t) error {
	var d unix.Stat_t
	if err := unix.Fstat(dir, &d); err != nil {
		return err
	}
	sticky := d.Mode&unix.S_ISVTX != 0 && d.Mode&0o022 != 0
	kind := st.Mode & unix.S_IFMT
	if sticky && (kind == unix.S_IFREG || kind == unix.S_IFIFO) && st.Uid != uint32(unix.Geteuid()) && st.Uid != d.Uid {
		return &fs.PathError{Op: "open", Path: path, Err: errors.New("another user's file in a sticky directory that others may write: not written (as fs.protected_regular)")}
	}
	// A file with other links there may be a hard link another user made
	// to a file of root's elsewhere: written in place, it would be that.
	if sticky && kind == unix.S_IFREG && uint64(st.Nlink) > 1 {
		return &fs.PathError{Op: "open", Path: path, Err: errors.New("a file with other links in a sticky directory that others may write: not written through them")}
	}
	return nil
}

// writeFile writes path with write: in place for what is not a regular
// file, or a file with other links (they must see it too), else as a new
// file renamed over it, with its mode and owner.
func writeFile(path string, write func(*os.File) error) error {
	dirPath, base := filepath.Split(path)
	if dirPath == "" {
		dirPath = "."
	}
	dir, err := unix.Open(dirPath, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: dirPath, Err: err}
	}
	defer unix.Close(dir)
	var st unix.Stat_t
	err = unix.Fstatat(dir, base, &st, unix.AT_SYMLINK_NOFOLLOW)
	exists := err == nil
	if exists {
		if err := mayWrite(dir, path, &st); err != nil {
			return err
		}
	}
	switch {
	case exists && st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return &fs.PathError{Op: "open", Path: path, Err: errors.New("changed to a symbolic link since it was resolved")}
	case exists && (st.Mode&unix.S_IFMT != unix.S_IFREG || uint64(st.Nlink) > 1):
		return writeInPlace(dir, base, path, &st, write)
	}
	var old *unix.Stat_t
	perm := uint32(newFileMode())
	if exists {
		old, perm = &st, uint32(st.Mode)&0o7777
	}
	err = writeAndRename(dir, base, path, perm, old, write)
	if exists && errors.Is(err, fs.ErrPermission) {
		return writeInPlace(dir, base, path, &st, write) // a writable file in a directory that is not
	}
	return err
}

// writeInPlace writes over base in dir, which must still be the file st.
func writeInPlace(dir int, base, path string, st *unix.Stat_t, write func(*os.File) error) error {
	// Opened without O_TRUNC: nothing is cut before the file is known to
	// be the one looked at.
	fd, err := unix.Openat(dir, base, unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	var now unix.Stat_t
	if err := unix.Fstat(fd, &now); err != nil || now.Dev != st.Dev || now.Ino != st.Ino {
		f.Close()
		return &fs.PathError{Op: "open", Path: path, Err: errors.New("replaced since it was looked at")}
	}
	if now.Mode&unix.S_IFMT == unix.S_IFREG {
		if err := unix.Ftruncate(fd, 0); err != nil {
			f.Close()
			return &fs.PathError{Op: "truncate", Path: path, Err: err}
		}
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeAndRename writes a new file beside base in dir and renames it over
// base, with perm and old's owner when base exists (old non-nil).
func writeAndRename(dir int, base, path string, perm uint32, old *unix.Stat_t, write func(*os.File) error) error {
	tmp := fmt.Sprintf(".%s.%016x", base, rand.Uint64())
	if len(tmp) > 255 {
		tmp = tmp[:255]
	}
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &fs.PathError{Op: "open", Path: filepath.Join(filepath.Dir(path), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	if old != nil {
		_ = unix.Fchown(fd, int(old.Uid), int(old.Gid)) // only root may give a file away
	}
	err = unix.Fchmod(fd, perm)
	if err == nil {
		err = write(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = unix.Renameat(dir, tmp, dir, base); err != nil {
			err = &fs.PathError{Op: "rename", Path: path, Err: err}
		}
	}
	if err != nil {
		unix.Unlinkat(dir, tmp, 0)
	}
	return err
}

// newFileMode is the mode open(2) gives a new file: 0666 less the umask,
// read (and put back) before any other goroutine creates a file.
func newFileMode() os.FileMode {
	mask := unix.Umask(0)
	unix.Umask(mask)
	return os.FileMode(0o666 &^ mask)
}
