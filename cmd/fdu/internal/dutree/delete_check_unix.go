//go:build unix

package dutree

import (
	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// What a deletion compares of each entry on disk with the scan.

// sameFile checks that st, found under the name of k (not a directory) in
// a directory listed at scanned, is the entry scanned.
func (d *deletion) sameFile(k *Node, scanned int64, st *diskEntry) error {
	switch {
	case d.otherMount(st):
		return ErrOtherFS
	case k.Ino == 0:
		return ErrUnknown // no inode to check it by
	case st.ino != k.Ino || !sameType(k, st.mode):
		return ErrChanged
	case !sameAsScanned(st.times, scanned, d.exact, d.t.ours[frd.ID{Dev: st.dev, Ino: st.ino}]):
		return ErrChanged // the inode number of a file made since
	}
	return nil
}

// sameDir checks that st, the directory opened under the name of n, is
// the one scanned.
func (d *deletion) sameDir(n *Node, st *diskEntry) error {
	switch {
	case d.otherMount(st):
		return ErrOtherFS
	case st.ino != n.Ino:
		return ErrChanged
	case !sameAsScanned(st.times, n.Dir.Scanned, d.exact, d.t.ours[frd.ID{Dev: st.dev, Ino: st.ino}]):
		return ErrChanged
	}
	return nil
}

// asFound checks that st is the directory n as the first phase found it:
// the same device and inode, and birth time where times are exact, and,
// when down (before anything in it is deleted), the same ctime.
func (d *deletion) asFound(n *Node, st *diskEntry, down bool) error {
	was, ok := d.ids[n.Dir]
	switch {
	case d.otherMount(st):
		return ErrOtherFS
	case !ok, st.ino != was.ino, d.exact && (st.hasBtime != was.hasBtime || st.btime != was.btime):
		return ErrChanged // overlayfs's copy-up, which deleting below does, gives a new birth time
	case down && st.ctime != was.ctime:
		return ErrChanged // an entry made, renamed or deleted in it since
	}
	return nil
}

// otherMount reports whether st is on another file system or mount than
// the deleted entry's directory, or the root of a mount.
func (d *deletion) otherMount(st *diskEntry) bool {
	return st.mountRoot || st.dev != d.dev || d.hasMnt && st.hasMnt && st.mnt != d.mnt
}

// sameType reports whether mode, an entry's type on disk, is the type n
// was scanned with (an excluded entry's: not a directory).
func sameType(n *Node, mode uint32) bool {
	switch {
	case mode == unix.S_IFDIR:
		return n.Dir != nil
	case n.Dir != nil:
		return false
	case n.Flags&Excluded != 0:
		return true
	case mode == unix.S_IFLNK:
		return n.Flags&Symlink != 0
	case mode == unix.S_IFREG:
		return n.Flags&NotReg == 0
	}
	return n.Flags&NotReg != 0 && n.Flags&Symlink == 0
}

// listed checks that the directory fd, n's, holds no name n's scan did
// not list. The listing order is usually the scan's, which spares a map.
func (d *deletion) listed(fd int, n *Node) error {
	if d.buf == nil {
		d.buf = make([]byte, 32<<10)
	}
	kids := n.Dir.Entries()
	var scanned map[string]struct{}
	i := 0
	for {
		m, err := unix.ReadDirent(fd, d.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &pathError{d.path(""), err}
		}
		if m <= 0 {
			return nil
		}
		_, _, d.names = unix.ParseDirent(d.buf[:m], -1, d.names[:0])
		for _, name := range d.names {
			if scanned == nil {
				if i < len(kids) && kids[i].Name == name {
					i++
					continue
				}
				scanned = make(map[string]struct{}, len(kids))
				for j := range kids {
					scanned[kids[j].Name] = struct{}{}
				}
			}
			if _, ok := scanned[name]; !ok {
				return &pathError{d.path(name), ErrNotEmpty}
			}
		}
	}
}
