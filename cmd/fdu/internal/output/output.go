// Package output writes a file a command was told to write (fdu -o) as a
// root user may safely do in a directory others can write: through links
// only as the kernel's fs.protected_symlinks follows them, over another
// user's file or a file with other links there never, always through the
// directory's descriptor, and a regular file under a temporary name renamed
// into place once complete. It imports nothing of fdu's.
package output

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes name, or what its links lead to, with write: see the
// package doc.
func Write(name string, write func(*os.File) error) error {
	target, err := resolveLinks(name)
	if err != nil {
		return err
	}
	return writeFile(target, write)
}

// resolveLinks is what name leads to through symbolic links, a target that
// does not exist yet included. A link in a sticky directory that everyone
// may write (/tmp) is followed only if it is the running user's or the
// directory owner's, as the kernel follows one under fs.protected_symlinks
// (whatever that is set to here): another user's link there must not
// lead root's export over a file of root's choosing, such as /etc/shadow.
func resolveLinks(name string) (string, error) {
	for range 40 {
		target, err := os.Readlink(name)
		if err != nil {
			return name, nil
		}
		if err := mayFollow(name); err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(name), target)
		}
		name = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", name)
}
