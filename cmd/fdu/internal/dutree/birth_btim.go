//go:build darwin || freebsd || netbsd

package dutree

import "golang.org/x/sys/unix"

// birth is st's birth time, where the file system keeps one (FreeBSD
// says -1 s where it does not, macOS 0).
func birth(st *unix.Stat_t) (int64, bool) {
	if st.Btim.Sec <= 0 {
		return 0, false
	}
	return unix.TimespecToNsec(st.Btim), true
}
