//go:build unix

package dutree

import (
	"context"
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// How a deletion opens, keeps and finds again its directories, within
// openBudget descriptors.

// openAt opens the directory name in the directory parent without
// following a link, and stats it.
func (d *deletion) openAt(parent int, name string) (int, diskEntry, error) {
	open := func() (int, error) {
		return unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	fd, err := retry(open)
	for errors.Is(err, unix.EMFILE) && d.closeOne() {
		fd, err = retry(open) // fewer descriptors than the budget: the limit's
	}
	switch {
	case errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP):
		return -1, diskEntry{}, ErrChanged // now a file, or a symbolic link
	case err != nil:
		return -1, diskEntry{}, err
	}
	st, err := statAt(fd, "")
	if err != nil {
		unix.Close(fd)
		return -1, diskEntry{}, err
	}
	return fd, st, nil
}

// reopen is the descriptor of up, the directory above l: open, or found
// again from l through "..", as the first phase found it.
func (d *deletion) reopen(up, l *level) (int, error) {
	if up.fd >= 0 {
		return up.fd, nil
	}
	fd, st, err := d.openAt(l.fd, "..")
	if err == nil {
		if err = d.asFound(&up.node, &st, false); err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		return -1, &pathError{d.path(""), err}
	}
	up.fd = fd
	d.open++
	return fd, nil
}

// path is the names from the deleted entry down to name in the directory
// on top of the stack (to the top itself when name is "").
func (d *deletion) path(name string) []string {
	out := make([]string, 0, len(d.stack)+1)
	for _, l := range d.stack {
		out = append(out, l.node.Name)
	}
	if name != "" {
		out = append(out, name)
	}
	return out
}

// stop is a *StoppedError once the context is done.
func (d *deletion) stop() error {
	if d.ctx.Err() == nil {
		return nil
	}
	return d.stopped(context.Cause(d.ctx))
}

func (d *deletion) stopped(err error) error {
	return &StoppedError{Files: d.files, Dirs: d.dirs, Bytes: d.bytes, Err: err}
}

func (d *deletion) push(n *Node, fd int) {
	d.stack = append(d.stack, &level{node: *n, fd: fd, kids: n.Dir.cursor()})
	d.open++
	for d.open > openBudget && d.closeOne() {
	}
}

// closeOne closes the open directory nearest the top of the tree, but for
// the deepest; false when there is none to close.
func (d *deletion) closeOne() bool {
	for _, l := range d.stack[:max(len(d.stack)-1, 0)] {
		if l.fd >= 0 {
			d.close(l)
			return true
		}
	}
	return false
}

func (d *deletion) close(l *level) {
	if l.fd >= 0 {
		unix.Close(l.fd)
		l.fd = -1
		d.open--
	}
}

// closeAll closes what the stack holds, however the phase ended.
func (d *deletion) closeAll() {
	for _, l := range d.stack {
		d.close(l)
	}
	d.stack = d.stack[:0]
}

// aboveError words a failure to reach the entry's directory: moved,
// removed or replaced, it is ErrAbove; a refusal (a mount) stays itself.
func aboveError(err error) error {
	if errors.Is(err, unix.ENOENT) || errors.Is(err, ErrChanged) {
		return ErrAbove
	}
	return err
}

// openDir opens the directory at names from the root down, one level at a
// time without following a link, each checked to be the one scanned (its
// device and inode) and no mount root; it holds one descriptor at the end,
// whatever the depth or the path's length.
func (t *Tree) openDir(names []string) (int, error) {
	root := t.Root()
	n := &root
	fd, err := retry(func() (int, error) {
		return unix.Open(n.Name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: n.Name, Err: err}
	}
	if err := onPath(fd, n, false); err != nil {
		unix.Close(fd)
		return -1, err
	}
	for i, name := range names {
		k := n.Dir.Lookup(name)
		if k == nil || k.Dir == nil {
			unix.Close(fd)
			return -1, ErrChanged
		}
		child, err := retry(func() (int, error) {
			return unix.Openat(fd, k.Name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		unix.Close(fd)
		switch {
		case errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP):
			err = ErrChanged // now a file, or a symbolic link
		case err == nil:
			if err = onPath(child, k, true); err != nil {
				unix.Close(child)
			}
		}
		if err != nil {
			return -1, &pathError{names[:i+1], err}
		}
		fd, n = child, k
	}
	return fd, nil
}

// onPath checks that fd is the directory n was scanned as and, below the
// root, no mount root.
func onPath(fd int, n *Node, below bool) error {
	st, err := statAt(fd, "")
	switch {
	case err != nil:
		return err
	case st.dev != n.Dir.Dev || below && st.mountRoot:
		return ErrOtherFS // a file system mounted there since
	case st.ino != n.Ino:
		return ErrChanged
	}
	return nil
}

func retry(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if err != unix.EINTR {
			return fd, err
		}
	}
}
