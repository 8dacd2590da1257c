//go:build !unix

package dutree

import (
	"io/fs"
	"os"
)

// fillStat has no inode or blocks to take here: Windows and the other
// systems keep the apparent size only (not verified).
func fillStat(fs.FileInfo, *Dir) {}

// Enter makes path the working directory: by its path here, unchecked
// (not verified on these systems).
func (t *Tree) Enter(_ []string, path string) (back func() error, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if err := os.Chdir(path); err != nil {
		return nil, err
	}
	return func() error { return os.Chdir(cwd) }, nil
}
