//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"io/fs"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// The descriptor walk: every directory is opened relative to its parent's
// descriptor, or found again from its nearest open ancestor, with
// O_NOFOLLOW (internal/dirfd), and its entries are stat'ed relative to it.

// handle is an open directory: a file descriptor.
type handle = int

const noHandle = -1

type fdNode = dirfd.Node
type fdSet = dirfd.Set

// newSet keeps up to max descriptors, closing the one kept longest for a
// new one: the walk goes depth first, so the directories kept longest,
// nearest the top, are the ones needed last, and by then a directory
// below has found them again through ".." (finish).
func newSet(max int) *fdSet { return dirfd.NewEvictingSet(max) }

// upTo is the directory above fd if it is (dev, ino), else noHandle.
func upTo(fd handle, dev, ino uint64) handle { return dirfd.Up(fd, dev, ino) }

func movedUp(n *fdNode, self handle, path string, dev, ino, pdev, pino uint64) (bool, handle) {
	return n.MovedUp(self, path, dev, ino, pdev, pino)
}

// plan fits the walk's workers, and its extra ones (Options.IOWorkers),
// into the descriptors left, the base workers first; unless its caller has
// planned for it (Options.Planned), for the base workers alone.
func plan(planned bool, workers, extra, kept int) (int, int, int, func()) {
	workers = max(workers, 1)
	if planned {
		if kept == 0 {
			kept = dirfd.DefaultKept()
		}
		return workers, 0, max(kept, 0), func() {}
	}
	all, kept, release := dirfd.Plan(workers+extra, kept, perWorker, 1)
	return min(workers, all), all - min(workers, all), kept, release
}

func openRoot(path string) (handle, error) { return dirfd.Open(path) }

func statHandle(fd handle) (info frd.Entry, dev, ino uint64, err error) {
	info, err = dirfd.Fstat(fd)
	return info, info.Device, info.FileID, err
}

// statOther fills e, an entry of the open directory fd that is neither a
// regular file nor a directory, from a stat of it (of what it leads to,
// when follow is set and it is a symbolic link).
func statOther(fd handle, dir string, e *frd.Entry, follow bool) error {
	st, err := dirfd.Fstatat(fd, dir, e.Name, follow)
	if err != nil {
		return err
	}
	name, link := e.Name, e.Type&fs.ModeSymlink
	*e = dirfd.Entry(&st)
	e.Name = name
	e.Type |= link
	return nil
}

// isDirAt reports whether name in parent is, or leads through symbolic
// links to, a directory. Its error is not reported: no path is built.
func isDirAt(parent handle, _, name string) bool {
	var st unix.Stat_t
	_, err := dirfd.Retry(func() (int, error) { return 0, unix.Fstatat(parent, name, &st, 0) })
	return err == nil && dirfd.ModeType(uint32(st.Mode)).IsDir()
}

func closeHandle(fd handle) { dirfd.Close(fd) }

func handleFd(fd handle) uintptr { return uintptr(fd) }

// devOf is the device of the directory at path, if a stat of it (through
// a final link only if follow) works.
func devOf(path string, follow bool) (uint64, bool) {
	stat := unix.Lstat
	if follow {
		stat = unix.Stat
	}
	var st unix.Stat_t
	if _, err := dirfd.Retry(func() (int, error) { return 0, stat(path, &st) }); err != nil {
		return 0, false
	}
	return dirfd.DevNum(st.Dev), true
}
