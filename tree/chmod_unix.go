//go:build linux || darwin

package tree

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// ErrLinkedIn is wrapped by the error for a file FilesReadOnly leaves as
// it is: one with several links, of another owner than its directory's.
var ErrLinkedIn = errors.New("another owner's file hard-linked into the tree: left as it is")

// FilesReadOnly clears the write bits of every regular file under dir,
// keeping its execute bits, as a build cache seals its outputs. It never
// follows or changes a symbolic link: each file is opened relative to its
// open directory without following a link (O_PATH on Linux), and its new
// mode is computed from and set through that descriptor, so a file
// exchanged for another under its name between the two is never given the
// other's mode, and a link is refused, not followed; a symbolic link given
// as dir is refused too (ErrSymlink). A file with several links whose
// owner is not its directory's is left as it is (ErrLinkedIn): whoever may
// write a directory may hard-link into it any file they may write
// (fs.protected_hardlinks allows that), another user's world-writable
// file among them, which sealing would take from its owner. It returns
// how many files it changed, and the first error once every other file
// has been changed; a dangling link does not fail it.
func FilesReadOnly(dir string, workers int) (int, error) {
	var n atomic.Int64
	err := permWalk(dir, workers, func(d *walk.Dir, report func(error)) error {
		fd := int(d.Fd())
		var dst unix.Stat_t
		if err := unix.Fstat(fd, &dst); err != nil {
			report(&Error{Op: "fstat", Path: d.Path, Err: err})
			return nil
		}
		for _, e := range d.Entries {
			if !e.Type.IsRegular() {
				continue
			}
			changed, err := sealFile(fd, e.Name, dst.Uid)
			if err != nil {
				report(&Error{Op: "chmod", Path: dirfd.Join(d.Path, e.Name), Err: err})
				continue
			}
			if changed {
				n.Add(1)
			}
		}
		return nil
	})
	return int(n.Load()), err
}

// sealFile clears the write bits of name in the open directory dirfd, of
// owner dirUID, if it is a regular file with any, reading the mode it
// changes, and the owner and links it checks, from the very inode it
// changes.
func sealFile(dirfd int, name string, dirUID uint32) (changed bool, err error) {
	fd, err := openNoFollow(dirfd, name)
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Mode&0o222 == 0 {
		return false, nil
	}
	if st.Nlink > 1 && st.Uid != dirUID {
		return false, ErrLinkedIn
	}
	return true, chmodFd(fd, &st, dirfd, name, uint32(st.Mode)&07777&^0o222)
}

// DirsWritable sets the owner's write bit on every directory under dir,
// dir included, so its entries can be removed or replaced, without
// touching a file: hard-linked files shared with other trees keep their
// modes. Each directory is changed through its own open descriptor
// (opened with O_NOFOLLOW, dir too: a symbolic link given as dir is
// refused with ErrSymlink), never by path. It returns how many
// directories it changed.
func DirsWritable(dir string, workers int) (int, error) {
	var n atomic.Int64
	err := permWalk(dir, workers, func(d *walk.Dir, report func(error)) error {
		fd := int(d.Fd())
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			report(&Error{Op: "fstat", Path: d.Path, Err: err})
			return nil
		}
		if st.Mode&0o200 != 0 {
			return nil
		}
		if err := unix.Fchmod(fd, uint32(st.Mode)&07777|0o200); err != nil {
			report(&Error{Op: "fchmod", Path: d.Path, Err: err})
			return nil
		}
		n.Add(1)
		return nil
	})
	return int(n.Load()), err
}

// chmodPerWorker is the most descriptors a permission walk's worker holds
// at once: the directory, and sealFile's two.
const chmodPerWorker = 3

// permWalk walks dir with fn, which reports what fails through report,
// and returns the first error once the whole tree has been walked: as
// chmod -R does, a file that could not be changed (removed meanwhile, say)
// stops nothing. dir's last component is never followed: a symbolic link
// given as dir, or swapped in for it, is refused (ErrSymlink), and the
// directory walked is the one opened.
func permWalk(dir string, workers int, fn func(d *walk.Dir, report func(error)) error) error {
	r, err := openDirRoot(dir)
	if err != nil {
		return err
	}
	defer r.close()
	r.closeParent() // walked from its own descriptor: one less open
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers, kept, release := dirfd.Plan(workers, 0, chmodPerWorker, 1)
	defer release()
	var mu sync.Mutex
	var first error
	report := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = err
		}
	}
	err = walk.DirsFile(context.Background(), r.dir, &walk.Options{
		Planned:     true, // permWalk's own plan, above
		Workers:     workers,
		MaxOpenDirs: walkKept(kept),
		OnError: func(e *walk.Error) error {
			report(&Error{Op: "walk", Path: e.Path, Err: e.Err})
			return nil
		},
	}, func(d *walk.Dir) error {
		r.walked(d)
		if testHookDir != nil {
			testHookDir(d)
		}
		return fn(d, report)
	})
	mu.Lock()
	defer mu.Unlock()
	if first != nil {
		return first
	}
	return err
}
