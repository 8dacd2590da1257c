//go:build unix

package walk

import (
	"io/fs"
	"syscall"
)

func inode(fi fs.FileInfo) uint64 { return uint64(fi.Sys().(*syscall.Stat_t).Ino) }

// fileID is what the comparison with the standard library keeps of a
// listing's FileID: all of it.
func fileID(id uint64) uint64 { return id }
