//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

type statResult struct {
	use      usage
	dev, ino uint64
	isDir    bool
	nlink    uint64
}

func statToResult(s *scanner, st *unix.Stat_t) statResult {
	u := usage{inodes: 1}
	if s.cfg.apparent {
		u.size = uint64(max(st.Size, 0))
	} else {
		u.size = uint64(st.Blocks) * 512
	}
	u.tmax = statTime(s.cfg.timeType, st)
	return statResult{use: u, dev: uint64(st.Dev), ino: uint64(st.Ino), isDir: st.Mode&unix.S_IFMT == unix.S_IFDIR, nlink: uint64(st.Nlink)}
}

// lstatUsage stats path without following a final symbolic link.
func lstatUsage(s *scanner, path string) (statResult, bool) {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return statResult{}, false
	}
	return statToResult(s, &st), true
}

// statArg stats a command-line argument, following a symbolic link when
// follow is set.
func statArg(s *scanner, path string, follow bool) (statResult, error) {
	var st unix.Stat_t
	var err error
	if follow {
		err = unix.Stat(path, &st)
	} else {
		err = unix.Lstat(path, &st)
	}
	if err != nil {
		return statResult{}, err
	}
	return statToResult(s, &st), nil
}

// statTime is st's time of the given --time type.
func statTime(timeType string, st *unix.Stat_t) stamp {
	switch timeType {
	case "ctime":
		return mkStamp(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	case "atime":
		return mkStamp(int64(st.Atim.Sec), int64(st.Atim.Nsec))
	}
	return mkStamp(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
}

// timeAt is that time of name in the open directory fd (following a
// symbolic link when follow is set), or of fd itself when name is empty;
// the zero stamp if it cannot be stat'ed.
func timeAt(timeType string, fd uintptr, name string, follow bool) stamp {
	var st unix.Stat_t
	var err error
	switch {
	case name == "":
		err = unix.Fstat(int(fd), &st)
	case follow:
		err = unix.Fstatat(int(fd), name, &st, 0)
	default:
		err = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return stamp{}
	}
	return statTime(timeType, &st)
}

// inodeOf is path's inode number, not following a final link; 0 if it
// cannot be stat'ed.
func inodeOf(path string) uint64 {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return 0
	}
	return uint64(st.Ino)
}

// strerror is glibc's message for the errno inside err.
func strerror(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	if m, ok := glibcMessages[errno]; ok {
		return m
	}
	s := errno.Error()
	if s != "" {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

var glibcMessages = map[syscall.Errno]string{
	unix.EACCES:       "Permission denied",
	unix.ENOENT:       "No such file or directory",
	unix.ENOTDIR:      "Not a directory",
	unix.ELOOP:        "Too many levels of symbolic links",
	unix.ENAMETOOLONG: "File name too long",
	unix.EIO:          "Input/output error",
	unix.EPERM:        "Operation not permitted",
	unix.EMFILE:       "Too many open files",
	unix.ENOMEM:       "Cannot allocate memory",
	unix.EOVERFLOW:    "Value too large for defined data type",
}

// newFileMode is the mode open(2) gives a new file: 0666 less the umask,
// read (and put back) before any other goroutine creates a file.
func newFileMode() os.FileMode {
	mask := unix.Umask(0)
	unix.Umask(mask)
	return os.FileMode(0o666 &^ mask)
}

// links is st's hard-link count.
func links(st os.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink)
	}
	return 1
}

// sameOwner gives f the owner and group of old, where allowed.
func sameOwner(f *os.File, old os.FileInfo) {
	if sys, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(sys.Uid), int(sys.Gid)) // only root may give a file away
	}
}
