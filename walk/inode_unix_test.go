//go:build unix

package walk

import (
	"io/fs"
	"syscall"
)

func inode(fi fs.FileInfo) uint64 { return uint64(fi.Sys().(*syscall.Stat_t).Ino) }
