// Package output writes a file a command was told to write (fdu -o) as a
// root user may safely do in a directory others can write: through links
// only if they are the user's or root's (the kernel's fs.protected_symlinks,
// applied in every directory, not only sticky ones), over another user's
// file or FIFO, or a file with other links, in a directory others may write
// never, always through the directory's descriptor, and a regular file
// under a temporary name renamed into place once complete. It imports
// nothing of fdu's.
package output

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes name, or what its links lead to, with write: see the
// package doc.
func Write(name string, write func(io.Writer) error) error {
	target, err := resolveLinks(name)
	if err != nil {
		return err
	}
	return writeFile(target, write)
}

// resolveLinks is what name leads to through symbolic links, a target that
// does not exist yet included. A link is followed only if it is the
// running user's or root's: another user's link, in /tmp or in their own
// directory, must not lead root's export over a file of their choosing,
// such as /etc/shadow.
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
