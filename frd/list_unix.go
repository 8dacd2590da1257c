//go:build linux || darwin

package frd

import (
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// The glue the Linux and macOS backends share: each defines list, the
// listing of an open descriptor to its end.

func readDir(name string) ([]Entry, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	l := listerPool.Get().(*Lister)
	entries, err := l.list(nil, fd, name)
	listerPool.Put(l)
	_ = unix.Close(fd) // a directory's close reports nothing worth an error
	return entries, err
}

func (l *Lister) appendFile(dst []Entry, f *os.File) ([]Entry, error) {
	dst, err := l.appendHandle(dst, f.Fd(), f.Name())
	runtime.KeepAlive(f) // its finalizer would close the descriptor
	return dst, err
}

func (l *Lister) appendHandle(dst []Entry, fd uintptr, name string) ([]Entry, error) {
	if l.Rewind {
		if _, err := unix.Seek(int(fd), 0, 0); err != nil {
			return dst, &os.PathError{Op: "lseek", Path: name, Err: err}
		}
	}
	return l.list(dst, int(fd), name)
}

// ignoringEINTR calls fn until it returns anything but EINTR: a slow file
// system (NFS, FUSE) may interrupt a listing or a stat with a signal.
func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); err != unix.EINTR {
			return err
		}
	}
}
