//go:build unix

package dutree

import (
	"io/fs"
	"syscall"
)

// sameFile reports whether st is the directory n was scanned as.
func sameFile(st fs.FileInfo, n *Node) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && uint64(sys.Ino) == n.Ino && uint64(sys.Dev) == n.Dir.Dev //nolint:unconvert // int32 on some systems
}

func sameIno(st fs.FileInfo, ino uint64) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && uint64(sys.Ino) == ino //nolint:unconvert
}
