//go:build !unix

package walk

import "io/fs"

func inode(fs.FileInfo) uint64 { return 0 }

// fileID is what the comparison with the standard library keeps of a
// listing's FileID: nothing, since the os package's FileInfo has none here.
func fileID(uint64) uint64 { return 0 }
