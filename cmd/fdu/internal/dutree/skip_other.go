//go:build !linux

package dutree

// kernFS is false here: kernel file systems are Linux's (ncdu's
// --exclude-kernfs is Linux only too).
func kernFS(int, string) bool { return false }
