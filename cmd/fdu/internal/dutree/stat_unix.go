//go:build unix && !linux

package dutree

import (
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// statAt is the entry name in the directory fd (fd itself when name is
// ""), not followed if a link. These systems tell no mount's root or id
// (not verified on them): a mount of another file system is still told
// by its device; a bind or null mount of the same one is not.
func statAt(fd int, name string) (diskEntry, error) {
	var st unix.Stat_t
	var err error
	if name == "" {
		err = unix.Fstat(fd, &st)
	} else {
		err = unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return diskEntry{}, err
	}
	e := diskEntry{mode: uint32(st.Mode) & unix.S_IFMT, dev: dirfd.DevNum(st.Dev), ino: uint64(st.Ino), nlink: uint64(st.Nlink)}
	e.ctime = unix.TimespecToNsec(st.Ctim)
	e.btime, e.hasBtime = birth(&st)
	return e, nil
}

// exactTimes is false here: how each file system stamps its times is not
// known (not verified), so they are compared with a margin.
func exactTimes(int, *diskEntry) bool { return false }
