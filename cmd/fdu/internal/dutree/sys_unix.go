//go:build unix

package dutree

import (
	"io/fs"
	"syscall"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// sameFile reports whether st is the directory n was scanned as.
func sameFile(st fs.FileInfo, n *Node) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && uint64(sys.Ino) == n.Ino && dirfd.DevNum(sys.Dev) == n.Dir.Dev
}

func sameIno(st fs.FileInfo, ino uint64) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && uint64(sys.Ino) == ino
}
