//go:build openbsd || dragonfly || solaris || illumos

package frd

import "syscall"

// changeTime is st_ctim, as these systems' Stat_t names it.
func changeTime(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Ctim.Sec), int64(st.Ctim.Nsec)
}
