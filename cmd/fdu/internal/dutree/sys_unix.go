//go:build unix

package dutree

import (
	"io/fs"
	"syscall"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// fillStat takes a directory's inode, device, links and blocks from st.
func fillStat(st fs.FileInfo, d *Dir) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		d.own.ino, d.own.nlink = uint64(sys.Ino), uint32(sys.Nlink)
		d.own.dsize = int64(sys.Blocks) * 512
		d.Dev = dirfd.DevNum(sys.Dev)
	}
}

// Enter makes the directory at names below the root, reached from the
// root without a symbolic link and checked to be the one scanned, this
// process's working directory, through its descriptor (fchdir), so that a
// shell started there starts in that very directory whatever is renamed
// meanwhile; back returns to the directory it was in. path names it
// where the system has no descriptors to go by.
func (t *Tree) Enter(names []string, path string) (back func() error, err error) {
	fd, err := t.openDir(names)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	cwd, err := unix.Open(".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: ".", Err: err}
	}
	if err := unix.Fchdir(fd); err != nil {
		unix.Close(cwd)
		return nil, &fs.PathError{Op: "fchdir", Path: path, Err: err}
	}
	return func() error {
		defer unix.Close(cwd)
		return unix.Fchdir(cwd)
	}, nil
}
