//go:build !unix

package dutree

import "io/fs"

// sameFile is true where the file id cannot be read from a FileInfo:
// Windows compares nothing (not verified there).
func sameFile(st fs.FileInfo, n *Node) bool { return st.IsDir() }

func sameIno(fs.FileInfo, uint64) bool { return true }
