//go:build unix

package dutree

import (
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// fstatAt is the entry name in the directory fd (fd itself when name is
// ""), not followed if a link, from fstatat: its type, identity, links,
// change time and, where stat gives one, birth time, but no mount's root
// or id.
func fstatAt(fd int, name string) (diskEntry, error) {
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
