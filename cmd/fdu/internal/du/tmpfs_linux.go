package du

import "golang.org/x/sys/unix"

// isTmpfs reports whether path lies on a tmpfs, where GNU fts does not sort
// huge directories by inode.
func isTmpfs(path string) bool {
	var sf unix.Statfs_t
	return unix.Statfs(path, &sf) == nil && sf.Type == unix.TMPFS_MAGIC
}
