//go:build unix

package dutree

import (
	"context"
	"errors"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// move runs Delete's first phase over k, then checks k once more and
// hands it to move.
func (t *Tree) move(ctx context.Context, dirNames []string, in *Dir, k *Node, move func(int, string, func(int, string) error) error) error {
	if t.ours == nil {
		t.ours = map[frd.ID]int64{}
	}
	fd, err := t.openDir(dirNames)
	if err != nil {
		return aboveError(err)
	}
	defer unix.Close(fd)
	top, err := statAt(fd, "")
	if err != nil {
		return err
	}
	if _, err := statAt(fd, k.Name); errors.Is(err, unix.ENOENT) {
		return ErrGone
	}
	d := &deletion{t: t, ctx: ctx, root: k, top: fd, dev: in.Dev, mnt: top.mnt, hasMnt: top.hasMnt,
		exact: exactTimes(fd, &top), ids: map[*Dir]diskEntry{}}
	defer d.closeAll()
	if err := writable(fd); err != nil {
		return err
	}
	if err := d.check(in); err != nil {
		return err
	}
	d.closeAll()
	if AfterChecks != nil {
		AfterChecks()
	}
	// The check walked below; what goes is the entry itself, checked
	// again now: a directory unchanged since (its ctime too), a file the
	// one scanned.
	st, err := statAt(fd, k.Name)
	if err == nil {
		if k.Dir != nil {
			err = d.asFound(k, &st, true)
		} else {
			err = d.sameFile(k, in.Scanned, &st)
		}
	}
	if errors.Is(err, unix.ENOENT) {
		return ErrGone
	}
	if err != nil {
		return &pathError{[]string{k.Name}, err}
	}
	// Once moved, the entry must be the one just checked: the same
	// inode, born at the same time (a rename changes its ctime).
	same := func(to int, as string) error {
		now, err := statAt(to, as)
		if err == nil && (now.ino != st.ino || now.dev != st.dev || now.mode != st.mode ||
			now.hasBtime != st.hasBtime || now.btime != st.btime) {
			err = ErrChanged
		}
		if err != nil {
			return &pathError{[]string{k.Name}, err}
		}
		return nil
	}
	if err := move(fd, k.Name, same); err != nil {
		return err
	}
	t.ours[frd.ID{Dev: top.dev, Ino: top.ino}] = time.Now().UnixNano()
	return nil
}

// truncate opens k, a file of the directory in at dirNames, without
// following a link or blocking on a FIFO, checks it is the file scanned,
// empties it and returns its sizes then.
func (t *Tree) truncate(dirNames []string, in *Dir, k *Node) (asize, dsize int64, err error) {
	if t.ours == nil {
		t.ours = map[frd.ID]int64{}
	}
	dfd, err := t.openDir(dirNames)
	if err != nil {
		return 0, 0, aboveError(err)
	}
	defer unix.Close(dfd)
	top, err := statAt(dfd, "")
	if err != nil {
		return 0, 0, err
	}
	fd, err := retry(func() (int, error) {
		return unix.Openat(dfd, k.Name, unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	})
	switch {
	case errors.Is(err, unix.ENOENT):
		return 0, 0, ErrGone
	case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.ENXIO):
		return 0, 0, ErrChanged // now a link, a directory, or a FIFO nobody reads
	case err != nil:
		return 0, 0, err
	}
	defer unix.Close(fd)
	st, err := statAt(fd, "")
	if err != nil {
		return 0, 0, err
	}
	d := &deletion{t: t, dev: in.Dev, mnt: top.mnt, hasMnt: top.hasMnt, exact: exactTimes(dfd, &top)}
	if err := d.sameFile(k, in.Scanned, &st); err != nil {
		return 0, 0, err
	}
	if err := unix.Ftruncate(fd, 0); err != nil {
		return 0, 0, err
	}
	t.ours[frd.ID{Dev: st.dev, Ino: st.ino}] = time.Now().UnixNano()
	var after unix.Stat_t
	if err := unix.Fstat(fd, &after); err != nil {
		return 0, 0, err
	}
	return after.Size, after.Blocks * 512, nil
}
