//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package snapshot

import (
	"io/fs"
	"os"
	"strings"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// dirFile is an open directory: its descriptor, and its path for errors.
type dirFile struct {
	fd   int
	path string
}

func openRoot(path string) (dirFile, error) {
	fd, err := dirfd.Open(path)
	return dirFile{fd, path}, err
}

func closeDir(d dirFile) { dirfd.Close(d.fd) }

// openName opens the directory name in d without following a link.
func openName(d dirFile, name string) (dirFile, error) {
	p := joinPath(d.path, name)
	fd, err := dirfd.OpenAt(d.fd, name, false, p)
	return dirFile{fd, p}, err
}

// openSteps opens the directory rel below root one element at a time,
// each without following a link.
func openSteps(root dirFile, rel string) (dirFile, error) {
	cur := root
	for _, name := range strings.Split(rel, "/") {
		next, err := openName(cur, name)
		if cur.fd != root.fd {
			closeDir(cur)
		}
		if err != nil {
			return dirFile{-1, next.path}, err
		}
		cur = next
	}
	return dirFile{cur.fd, joinPath(root.path, rel)}, nil
}

// statSelf stats the open directory itself.
func statSelf(d dirFile) (Entry, error) {
	var st unix.Stat_t
	if _, err := dirfd.Retry(func() (int, error) { return 0, unix.Fstat(d.fd, &st) }); err != nil {
		return Entry{}, &os.PathError{Op: "fstat", Path: d.path, Err: err}
	}
	return fromStat(&st), nil
}

// statAt stats name in d, never following a link, and reads a link's
// target when keys ask for it.
func statAt(d dirFile, name string, keys Keys) (Entry, error) {
	x, err := lstatAt(d, name)
	if err != nil {
		return Entry{}, err
	}
	x.Name = name
	if x.Type == fs.ModeSymlink && keys&KeyTarget != 0 {
		if x.Target, err = readlinkAt(d, name); err != nil {
			return x, err
		}
		x.Size = int64(len(x.Target))
	}
	return x, nil
}

func readlinkAt(d dirFile, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := dirfd.Retry(func() (int, error) { return unix.Readlinkat(d.fd, name, buf) })
		if err != nil {
			return "", &os.PathError{Op: "readlinkat", Path: joinPath(d.path, name), Err: err}
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// fromStat is st as an Entry, without its name.
func fromStat(st *unix.Stat_t) Entry {
	x := Entry{
		Type:       dirfd.ModeType(uint32(st.Mode)),
		Perm:       permBits(uint32(st.Mode)),
		Size:       st.Size,
		ModTime:    unixtime.Nanos(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)),
		ChangeTime: unixtime.Nanos(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)),
		FileID:     uint64(st.Ino),
		Links:      uint64(st.Nlink),
		UID:        st.Uid,
		GID:        st.Gid,
		Device:     dirfd.DevNum(st.Dev),
	}
	switch {
	case x.Type.IsDir():
		x.Size, x.Links = 0, 0 // they follow from what it holds
	case x.Type&fs.ModeDevice != 0:
		x.Size = int64(dirfd.DevNum(st.Rdev))
	}
	return x
}

// permBits maps a stat's permission, set-id and sticky bits to
// fs.FileMode's.
func permBits(mode uint32) fs.FileMode {
	p := fs.FileMode(mode & 0o777)
	if mode&unix.S_ISUID != 0 {
		p |= fs.ModeSetuid
	}
	if mode&unix.S_ISGID != 0 {
		p |= fs.ModeSetgid
	}
	if mode&unix.S_ISVTX != 0 {
		p |= fs.ModeSticky
	}
	return p
}

// listNames lists d's names and types.
func listNames(l *frd.Lister, d dirFile, dst []frd.Entry) ([]frd.Entry, error) {
	l.Names, l.Rewind = true, true
	return l.AppendHandle(dst, uintptr(d.fd), d.path)
}

// openFileAt opens the regular file name in d for reading, never through
// a link, and never blocking on a FIFO swapped in for it.
func openFileAt(d dirFile, name string) (*os.File, error) {
	p := joinPath(d.path, name)
	fd, err := dirfd.Retry(func() (int, error) {
		return unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// statFile is the open file's stat.
func statFile(f *os.File) (Entry, error) {
	var st unix.Stat_t
	if _, err := dirfd.Retry(func() (int, error) { return 0, unix.Fstat(int(f.Fd()), &st) }); err != nil {
		return Entry{}, &os.PathError{Op: "fstat", Path: f.Name(), Err: err}
	}
	return fromStat(&st), nil
}

func joinPath(dir, name string) string { return dirfd.Join(dir, name) }

// walkDir is the directory a walk has open.
func walkDir(d *walk.Dir) dirFile { return dirFile{int(d.Fd()), d.Path} }

// planWorkers fits the compare's workers, each holding a directory and a
// file being hashed, and its own goroutine's directory into
// RLIMIT_NOFILE.
func planWorkers(n int) (int, func()) {
	w, _, release := dirfd.Plan(n+1, -1, 2, 1)
	return max(w-1, 1), release
}
