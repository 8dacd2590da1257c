//go:build unix

package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// The file system's part of writing an export: through the target's
// directory, opened once, so that what is written and renamed is in that
// directory whatever is renamed meanwhile, and never through a link.

// mayFollow refuses to follow the symbolic link name where another user
// could have pointed it: a link that is neither the running user's nor
// root's. The kernel's fs.protected_symlinks refuses only in a sticky
// directory everyone may write; another user's own directory (the tree
// root scans, the working directory E writes in) is as much theirs.
func mayFollow(name string) error {
	var link unix.Stat_t
	if err := unix.Lstat(name, &link); err != nil {
		return err
	}
	if !trusted(link.Uid) {
		return &fs.PathError{Op: "follow", Path: name, Err: errors.New("a symbolic link of another user's: not followed (as fs.protected_symlinks, in any directory)")}
	}
	return nil
}

// trusted reports whether uid is the running user's or root's: what they
// own, no other user made.
func trusted(uid uint32) bool { return uid == uint32(unix.Geteuid()) || uid == 0 }

// mayWrite refuses to write over st, the file path names in the open
// directory dir, where another user may write in dir (it is theirs, or
// open to others, /tmp included) and st is a file or FIFO neither the
// writer's nor root's: what another user made beforehand under the name
// would receive root's scan, and their FIFO would hold the writer until
// they read. The kernel's fs.protected_regular and protected_fifos refuse
// so in sticky directories only.
func mayWrite(dir int, path string, st *unix.Stat_t) error {
	var d unix.Stat_t
	if err := unix.Fstat(dir, &d); err != nil {
		return err
	}
	open := !trusted(d.Uid) || d.Mode&0o022 != 0
	kind := st.Mode & unix.S_IFMT
	if open && (kind == unix.S_IFREG || kind == unix.S_IFIFO) && !trusted(st.Uid) {
		return &fs.PathError{Op: "open", Path: path, Err: errors.New("another user's file in a directory others may write: not written (as fs.protected_regular, in any such directory)")}
	}
	// A file with other links there may be a hard link another user made
	// to a file of root's elsewhere: written in place, it would be that.
	if open && kind == unix.S_IFREG && uint64(st.Nlink) > 1 {
		return &fs.PathError{Op: "open", Path: path, Err: errors.New("a file with other links in a directory others may write: not written through them")}
	}
	return nil
}

// writeFile writes path with write: in place for what is not a regular
// file, or a file with other links (they must see it too), else as a new
// file renamed over it, with its mode and owner.
func writeFile(path string, write func(io.Writer) error) error {
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
	var pe placeError
	if exists && errors.As(err, &pe) && errors.Is(err, fs.ErrPermission) {
		return writeInPlace(dir, base, path, &st, write) // a writable file in a directory that is not
	}
	return err
}

// placeError is writeAndRename's failure to make its new file or to rename
// it over the old one, not write's: only that is tried again in place
// (write failing for want of permission, an unreadable directory scanned,
// would fail again, the old file emptied).
type placeError struct{ error }

func (e placeError) Unwrap() error { return e.error }

// writeInPlace writes over base in dir, which must still be the file st.
func writeInPlace(dir int, base, path string, st *unix.Stat_t, write func(io.Writer) error) error {
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
	var w io.Writer = f
	tf := &truncateFirst{f: f}
	if now.Mode&unix.S_IFMT == unix.S_IFREG {
		w = tf
	}
	err = write(w)
	if err == nil && w == tf {
		err = tf.truncate() // nothing written: the file is empty all the same
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// truncateFirst empties its file at the first write, not before: an
// export that fails before it writes anything (its root unreadable)
// leaves the file as it was.
type truncateFirst struct {
	f    *os.File
	done bool
}

func (w *truncateFirst) truncate() error {
	if w.done {
		return nil
	}
	w.done = true
	if err := w.f.Truncate(0); err != nil {
		return &fs.PathError{Op: "truncate", Path: w.f.Name(), Err: err}
	}
	return nil
}

func (w *truncateFirst) Write(p []byte) (int, error) {
	if err := w.truncate(); err != nil {
		return 0, err
	}
	return w.f.Write(p)
}

// writeAndRename writes a new file beside base in dir and renames it over
// base, with perm and old's owner when base exists (old non-nil).
func writeAndRename(dir int, base, path string, perm uint32, old *unix.Stat_t, write func(io.Writer) error) error {
	tmp := fmt.Sprintf(".%s.%016x", base, rand.Uint64())
	if len(tmp) > 255 {
		tmp = tmp[:255]
	}
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return placeError{&fs.PathError{Op: "open", Path: filepath.Join(filepath.Dir(path), tmp), Err: err}}
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
			err = placeError{&fs.PathError{Op: "rename", Path: path, Err: err}}
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
