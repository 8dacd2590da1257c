//go:build unix

package dutree

import (
	"errors"
	"io/fs"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// remove deletes k, an entry of the directory at dirNames.
func (t *Tree) remove(dirNames []string, k *Node) error {
	fd, err := t.openDir(dirNames)
	if err != nil {
		return aboveError(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstatat(fd, k.Name, &st, unix.AT_SYMLINK_NOFOLLOW); errors.Is(err, unix.ENOENT) {
		return ErrGone // in the directory scanned, checked: not moved above
	}
	return removeAt(fd, k, []string{k.Name})
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
// time without following a link, each checked to be the one scanned; it
// holds one descriptor at the end, whatever the depth or the path's length.
func (t *Tree) openDir(names []string) (int, error) {
	n := &t.Root
	fd, err := retry(func() (int, error) {
		return unix.Open(n.Name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: n.Name, Err: err}
	}
	if err := sameDir(fd, n); err != nil {
		unix.Close(fd)
		return -1, err
	}
	for i, name := range names {
		k := n.Dir.Lookup(name)
		if k == nil || k.Dir == nil {
			unix.Close(fd)
			return -1, ErrChanged
		}
		child, err := openChild(fd, k)
		unix.Close(fd)
		if err != nil {
			return -1, &pathError{names[:i+1], err}
		}
		fd, n = child, k
	}
	return fd, nil
}

// openChild opens k, a subdirectory of the directory fd, and checks it is
// the directory scanned and no mount point.
func openChild(fd int, k *Node) (int, error) {
	child, err := retry(func() (int, error) {
		return unix.Openat(fd, k.Name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	switch {
	case errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP):
		return -1, ErrChanged // now a file, or a symbolic link
	case err != nil:
		return -1, err
	}
	if err := sameDir(child, k); err != nil {
		unix.Close(child)
		return -1, err
	}
	if mountRoot(child) {
		unix.Close(child)
		return -1, ErrOtherFS
	}
	return child, nil
}

// sameDir checks that fd is the directory n was scanned as.
func sameDir(fd int, n *Node) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if dirfd.DevNum(st.Dev) != n.Dir.Dev {
		return ErrOtherFS // a file system mounted there since
	}
	if uint64(st.Ino) != n.Ino {
		return ErrChanged
	}
	return nil
}

// removeAt deletes k from the directory fd: what the scan found in it,
// then k itself. It goes on past an error, as rm -r does, and returns the
// first.
func removeAt(fd int, k *Node, path []string) error {
	if k.Dir == nil {
		return removeFile(fd, k, path)
	}
	child, err := openChild(fd, k)
	if err != nil {
		return &pathError{path, err}
	}
	r := &remover{}
	r.push(k, child, path)
	return r.run(fd)
}

// openBudget is the most descriptors a deletion keeps open, whatever the
// depth: deeper, the directories above are closed and found again from
// below through "..", checked to be the ones scanned.
const openBudget = 8

// remover deletes a directory's subtree depth first, without recursion.
type remover struct {
	stack []*level
	open  int
	first error
}

// level is a directory being emptied: its descriptor (-1 while closed for
// the budget) and its next entry.
type level struct {
	node *Node
	fd   int
	next int
	path []string
}

func (r *remover) fail(err error) {
	if err != nil && !errors.Is(err, fs.ErrNotExist) && r.first == nil {
		r.first = err
	}
}

func (r *remover) push(n *Node, fd int, path []string) {
	r.stack = append(r.stack, &level{node: n, fd: fd, path: path})
	r.open++
	for r.open > openBudget && r.closeOne() {
	}
}

// closeOne closes the open directory nearest the top of the tree, but for
// the deepest; false when there is none to close.
func (r *remover) closeOne() bool {
	for _, l := range r.stack[:max(len(r.stack)-1, 0)] {
		if l.fd >= 0 {
			unix.Close(l.fd)
			l.fd = -1
			r.open--
			return true
		}
	}
	return false
}

// run empties and removes the directories on the stack; top is the
// directory holding the first, open for the whole run.
func (r *remover) run(top int) error {
	for len(r.stack) > 0 {
		l := r.stack[len(r.stack)-1]
		if l.next < len(l.node.Dir.Kids) {
			r.step(l)
			continue
		}
		r.stack = r.stack[:len(r.stack)-1]
		parent := top
		if len(r.stack) > 0 {
			parent = r.reopen(r.stack[len(r.stack)-1], l)
		}
		unix.Close(l.fd)
		r.open--
		if parent < 0 {
			continue // its directory could not be found again: reported
		}
		err := unix.Unlinkat(parent, l.node.Name, unix.AT_REMOVEDIR)
		if errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST) {
			err = ErrNotEmpty
		}
		if err != nil {
			r.fail(&pathError{l.path, err})
		}
	}
	return r.first
}

// step deletes l's next entry, or opens it to empty it first.
func (r *remover) step(l *level) {
	kid := &l.node.Dir.Kids[l.next]
	l.next++
	path := append(slices.Clone(l.path), kid.Name)
	if kid.Dir == nil {
		r.fail(removeFile(l.fd, kid, path))
		return
	}
	fd, err := openChild(l.fd, kid)
	for errors.Is(err, unix.EMFILE) && r.closeOne() {
		fd, err = openChild(l.fd, kid) // fewer descriptors than the budget: the limit's
	}
	if err != nil {
		r.fail(&pathError{path, err})
		return
	}
	r.push(kid, fd, path)
}

// reopen is the descriptor of up, the directory above l: open, or found
// again from l through "..".
func (r *remover) reopen(up, l *level) int {
	if up.fd >= 0 {
		return up.fd
	}
	dotdot := func() (int, error) {
		return unix.Openat(l.fd, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	fd, err := retry(dotdot)
	for errors.Is(err, unix.EMFILE) && r.closeOne() {
		fd, err = retry(dotdot)
	}
	if err == nil {
		if err = sameDir(fd, up.node); err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		r.fail(&pathError{up.path, err})
		return -1
	}
	up.fd = fd
	r.open++
	return fd
}

func removeFile(fd int, k *Node, path []string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(fd, k.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &pathError{path, err}
	}
	switch {
	case st.Mode&unix.S_IFMT == unix.S_IFDIR && k.Flags&Excluded != 0:
		return &pathError{path, ErrUnknown}
	case k.Ino == 0:
		return &pathError{path, ErrUnknown} // no inode to check it by
	case st.Mode&unix.S_IFMT == unix.S_IFDIR, uint64(st.Ino) != k.Ino:
		return &pathError{path, ErrChanged}
	}
	if err := unix.Unlinkat(fd, k.Name, 0); err != nil {
		return &pathError{path, err}
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
