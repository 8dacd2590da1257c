//go:build unix

package dutree

import "golang.org/x/sys/unix"

// extAt is the owner, group and mode of name in the directory fd (fd
// itself when name is ""), through a link only when follow says so: the
// stat that extended mode costs each entry, since a listing's stat keeps
// none of them.
func extAt(fd int, name string, follow bool) (Ext, bool) {
	var st unix.Stat_t
	var err error
	flags := unix.AT_SYMLINK_NOFOLLOW
	if follow {
		flags = 0
	}
	for {
		if name == "" {
			err = unix.Fstat(fd, &st)
		} else {
			err = unix.Fstatat(fd, name, &st, flags)
		}
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return Ext{}, false
	}
	return Ext{Uid: st.Uid, Gid: st.Gid, Mode: uint32(st.Mode)}, true
}
