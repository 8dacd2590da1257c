//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package snapshot

// openRel opens the directory rel below root one element at a time, each
// without following a link.
func openRel(root dirFile, rel string) (dirFile, error) { return openSteps(root, rel) }
