//go:build unix

package dutree

import (
	"io/fs"
	"syscall"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// fillStat takes a directory's inode, device, links and blocks from st.
func fillStat(st fs.FileInfo, n *Node) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		n.Ino, n.Nlink = uint64(sys.Ino), uint32(sys.Nlink)
		n.Dsize = int64(sys.Blocks) * 512
		n.Dir.Dev = dirfd.DevNum(sys.Dev)
	}
}

// Verify checks that the directory at names below the root is still the
// one scanned, reached without a symbolic link: what a shell there starts
// from.
func (t *Tree) Verify(names []string) error {
	fd, err := t.openDir(names)
	if err == nil {
		unix.Close(fd)
	}
	return err
}
