// Package dirfd owns the directory descriptors of the walk and tree
// packages on every Unix they walk by descriptor: opening a directory
// relative to its parent with O_NOFOLLOW, finding one again from its
// nearest open ancestor or through ".." from a kept one below it, each
// step checked by device and inode, the budget of descriptors a walk may
// hold, and closing every descriptor a walk kept when it ends, however it
// ends.
//
// Join is on every platform; the rest is on the Unix systems with a
// descriptor-relative listing (Linux, macOS and the BSDs).
package dirfd

import (
	"os"
	"path/filepath"
)

// Join joins a directory's path and an entry's name as the walk reports
// them: filepath.Join without cleaning the root as given.
func Join(dir, name string) string {
	if dir == "" {
		return name
	}
	if os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}
