package snapshot

import (
	"os"
	"sync/atomic"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel has answered ENOSYS (before Linux 5.6).
var noOpenat2 atomic.Bool

// openRel opens the directory rel (a path relative to root, never "")
// in one openat2 that refuses every symbolic link on the way, or one
// element at a time where the kernel has no openat2.
func openRel(root dirFile, rel string) (dirFile, error) {
	if !noOpenat2.Load() {
		how := unix.OpenHow{
			Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_BENEATH,
		}
		fd, err := dirfd.Retry(func() (int, error) { return unix.Openat2(root.fd, rel, &how) })
		switch err {
		case nil:
			return dirFile{fd, joinPath(root.path, rel)}, nil
		case unix.ENOSYS, unix.EPERM: // no openat2, or a seccomp filter refusing it
			noOpenat2.Store(true)
		default:
			return dirFile{-1, joinPath(root.path, rel)}, &os.PathError{Op: "openat2", Path: joinPath(root.path, rel), Err: err}
		}
	}
	return openSteps(root, rel)
}
