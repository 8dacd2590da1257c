//go:build freebsd || netbsd

package frd

import "syscall"

// changeTime is st_ctimespec, as these systems' Stat_t names it.
func changeTime(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)
}
