//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package walk

import (
	"os"
	"syscall"

	"github.com/pbednarcik/flexreaddir/frd"
)

// The by-path walk (Windows, and the systems without a descriptor-relative
// walk here): each directory is opened by its full path, so nothing is
// kept open between listings, and a directory swapped for a symbolic link
// between the check and the open is not detected. What each system stats
// is in sys_windows.go and sys_other.go.

type handle = *os.File

var noHandle handle

// fdNode is where a directory is; the by-path walk needs no descriptor of
// an ancestor to open it.
type fdNode struct {
	Parent *fdNode
	Name   string
	Follow bool
}

// Open opens the directory at path, refusing a symbolic link unless it is
// a followed one. (The check and the open are two steps here.)
func (n *fdNode) Open(path string) (handle, error) {
	if !n.Follow {
		fi, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, &os.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
		}
	}
	return os.Open(path)
}

// Identify records nothing: a by-path walk opens each directory once.
func (*fdNode) Identify(uint64, uint64) {}

// Moved is not checked by path: the check is the descriptor walk's.
func (*fdNode) Moved(string, uint64, uint64, uint64, uint64) bool { return false }

// Kept: nothing is kept.
func (*fdNode) Kept() bool { return false }

// upTo and movedUp: the by-path walk has no descriptor to go up from.
func upTo(handle, uint64, uint64) handle { return noHandle }

func movedUp(*fdNode, handle, string, uint64, uint64, uint64, uint64) (bool, handle) {
	return false, noHandle
}

// fdSet keeps nothing: every directory is opened by its path.
type fdSet struct{}

func newSet(int) *fdSet                        { return &fdSet{} }
func (*fdSet) Keep(*fdNode, handle, bool) bool { return false }
func (*fdSet) Close(*fdNode)                   {}
func (*fdSet) Take(*fdNode) handle             { return noHandle }
func (*fdSet) CloseAll()                       {}

func (*fdSet) OpenNear(n *fdNode, path string) (handle, error) { return n.Open(path) }

// plan: one descriptor per worker, whatever the budget.
func plan(_ bool, workers, extra, kept int) (int, int, int, func()) {
	return max(workers, 1), extra, kept, func() {}
}

func openRoot(path string) (handle, error) { return os.Open(path) }

func listHandle(l *frd.Lister, dst []frd.Entry, f handle, _ string) ([]frd.Entry, error) {
	return l.AppendDir(dst, f)
}

func statEntries(l *frd.Lister, entries []frd.Entry, f handle, path string) ([]frd.Entry, error) {
	return l.Stat(entries, handleFd(f), path)
}

func isDirAt(_ handle, dir, name string) bool {
	fi, err := os.Stat(joinPath(dir, name))
	return err == nil && fi.IsDir()
}

func closeHandle(f handle) {
	if f != nil {
		f.Close()
	}
}

func handleFd(f handle) uintptr {
	if f == nil {
		return ^uintptr(0)
	}
	return f.Fd()
}

// listPartHandle reads the whole directory as its one part.
func listPartHandle(l *frd.Lister, dst []frd.Entry, f handle, path string) ([]frd.Entry, bool, error) {
	dst, err := listHandle(l, dst, f, path)
	return dst, true, err
}
