package main

import (
	"io"
	"os"
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/output"
	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
)

// export writes t to name ("-": stdout). A regular file (or a new one) is
// written under a temporary name and renamed into place once complete, so
// a failed export leaves no half a file; anything else (/dev/null, a FIFO,
// a terminal) is written as it is, and a symbolic link is written through
// as a shell's > writes through one, by the kernel's rule for links in
// directories others may write (output.Write).
func (c *command) export(name string, t *dutree.Tree, mtime bool) error {
	o := dutree.WriteOptions{Meta: dutree.Meta{Progname: "fdu", Progver: version.Number(), Timestamp: time.Now().Unix()}, Mtime: mtime, Extended: t.Extended}
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
	return output.Write(name, func(f *os.File) error { return write(f) })
}
