package interactive

import (
	"io"
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
func (r *run) export(name string, t *dutree.Tree) error {
	o := dutree.WriteOptions{Meta: meta(), Mtime: r.Du.ShowTime, Extended: t.Extended}
	return r.writeTo(name, func(w io.Writer) error { return dutree.Write(w, t, o) })
}

// meta is an export's header: fdu, its version, the time now.
func meta() dutree.Meta {
	return dutree.Meta{Progname: "fdu", Progver: version.Number(), Timestamp: time.Now().Unix()}
}

// writeTo writes name ("-": stdout) with write, as export says.
func (r *run) writeTo(name string, write func(io.Writer) error) error {
	if name == "-" {
		if err := write(r.Out); err != nil {
			return err
		}
		return r.Out.Flush()
	}
	return output.Write(name, write)
}
