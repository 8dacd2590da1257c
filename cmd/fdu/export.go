package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
)

// export writes t to name ("-": stdout). A regular file (or a new one) is
// written under a temporary name and renamed into place once complete, so
// a failed export leaves no half a file; anything else (/dev/null, a FIFO,
// a terminal) is written as it is, and a symbolic link is written through
// as a shell's > writes through one, by the kernel's rule for links in
// directories others may write (resolveLinks).
func (c *command) export(name string, t *dutree.Tree, mtime bool) error {
	o := dutree.WriteOptions{Meta: dutree.Meta{Progname: "fdu", Progver: version.Number(), Timestamp: time.Now().Unix()}, Mtime: mtime}
	return c.writeTo(name, func(w io.Writer) error { return dutree.Write(w, t, o) })
}

// writeTo writes name ("-": stdout) with write, as export says.
func (c *command) writeTo(name string, write func(io.Writer) error) error {
	if name == "-" {
		if err := write(c.out); err != nil {
			return err
		}
		return c.out.Flush()
	}
	target, err := resolveLinks(name)
	if err != nil {
		return err
	}
	return writeExport(target, func(f *os.File) error { return write(f) })
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
