//go:build !unix

package dutree

// cacheDirTagged is false here: a tag would be read through a path, not
// a descriptor (Windows; not built yet).
func cacheDirTagged(int, string) bool { return false }
