package walk

import (
	"io/fs"
	"os"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// handle is an open directory: a file descriptor.
type handle = int

const noHandle = -1

const openFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC

func openRoot(path string) (handle, error) {
	fd, err := retry(func() (int, error) { return unix.Open(path, openFlags, 0) })
	if err != nil {
		return noHandle, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// openAt opens the directory name in the open directory parent, never
// through a symbolic link unless follow is set.
func openAt(parent handle, name string, follow bool, path string) (handle, error) {
	flags := openFlags | unix.O_NOFOLLOW
	if follow {
		flags = openFlags
	}
	fd, err := retry(func() (int, error) { return unix.Openat(parent, name, flags, 0) })
	if err != nil {
		return noHandle, &os.PathError{Op: "openat", Path: path, Err: err}
	}
	return fd, nil
}

// reopen opens n when its parent's descriptor has been closed: from the
// nearest ancestor whose descriptor is open (the root's always is), one
// component at a time, each with openat and O_NOFOLLOW (but for followed
// links), so that no symbolic link swapped into the tree can lead out.
func reopen(n *node) (handle, error) {
	var chain []*node // n and the ancestors below the open one, deepest first
	a := n
	for ; ; a = a.parent {
		chain = append(chain, a)
		p := a.parent
		p.mu.Lock()
		if p.fd != noHandle {
			fd, err := openAt(p.fd, a.name, a.follow, a.dir.Path)
			p.mu.Unlock()
			if err != nil {
				return noHandle, err
			}
			for i := len(chain) - 2; i >= 0; i-- {
				c := chain[i]
				next, err := openAt(fd, c.name, c.follow, c.dir.Path)
				closeHandle(fd)
				if err != nil {
					return noHandle, err
				}
				fd = next
			}
			return fd, nil
		}
		p.mu.Unlock()
	}
}

func statHandle(fd handle) (info frd.Entry, dev, ino uint64, err error) {
	var st unix.Stat_t
	if _, err := retry(func() (int, error) { return 0, unix.Fstat(fd, &st) }); err != nil {
		return info, 0, 0, &os.PathError{Op: "fstat", Err: err}
	}
	info = entryFromStat(&st)
	return info, uint64(st.Dev), uint64(st.Ino), nil
}

// statOther fills e, an entry of the open directory fd that is neither a
// regular file nor a directory, from a stat of it (of what it leads to,
// when follow is set and it is a symbolic link).
func statOther(fd handle, dir string, e *frd.Entry, follow bool) error {
	flags := unix.AT_SYMLINK_NOFOLLOW
	if follow {
		flags = 0
	}
	var st unix.Stat_t
	if _, err := retry(func() (int, error) { return 0, unix.Fstatat(fd, e.Name, &st, flags) }); err != nil {
		return &os.PathError{Op: "fstatat", Path: joinPath(dir, e.Name), Err: err}
	}
	name, link := e.Name, e.Type&fs.ModeSymlink
	*e = entryFromStat(&st)
	e.Name = name
	e.Type |= link
	return nil
}

// entryFromStat is st as an Entry with every field filled, whatever its type.
func entryFromStat(st *unix.Stat_t) frd.Entry {
	return frd.Entry{
		Type:            modeType(st.Mode),
		Size:            st.Size,
		ModTimeNanos:    st.Mtim.Nano(),
		ChangeTimeNanos: st.Ctim.Nano(),
		FileID:          uint64(st.Ino),
		Allocated:       int64(st.Blocks) * 512,
		Links:           uint64(st.Nlink),
		Device:          uint64(st.Dev),
	}
}

// modeType maps a stat's S_IFMT bits to fs.FileMode type bits.
func modeType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

func listHandle(l *frd.Lister, dst []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	return l.AppendHandle(dst, uintptr(fd), path)
}

func statEntries(l *frd.Lister, entries []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	return l.Stat(entries, uintptr(fd), path)
}

// lstatAt stats name in the open directory fd without following a link,
// for its error alone.
func lstatAt(fd handle, dir, name string) error {
	var st unix.Stat_t
	if _, err := retry(func() (int, error) { return 0, unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return &os.PathError{Op: "fstatat", Path: joinPath(dir, name), Err: err}
	}
	return nil
}

// isDirAt reports whether name in parent is, or leads through symbolic
// links to, a directory.
func isDirAt(parent handle, name, path string) bool {
	var st unix.Stat_t
	_, err := retry(func() (int, error) { return 0, unix.Fstatat(parent, name, &st, 0) })
	return err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR
}

func closeHandle(fd handle) {
	if fd != noHandle {
		unix.Close(fd)
	}
}

func defaultMaxOpenDirs() int32 {
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) != nil {
		return 64
	}
	return int32(min(max(rl.Cur/4, 4), 1024))
}

// retry calls fn until it returns anything but EINTR.
func retry(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != unix.EINTR {
			return n, err
		}
	}
}

func handleFd(fd handle) uintptr { return uintptr(fd) }
