//go:build freebsd || netbsd || openbsd || dragonfly || solaris || illumos

package frd

import (
	"io/fs"
	"syscall"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
)

// fillSys copies what the portable listing's lstat gave beyond size and
// modification time.
func fillSys(e *Entry, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		sec, nsec := changeTime(st)
		e.ChangeTimeNanos = unixtime.Nanos(sec, nsec)
		e.FileID = uint64(st.Ino)
		e.Allocated = int64(st.Blocks) * 512
		e.Links = uint64(st.Nlink)
		e.Device = uint64(st.Dev)
	}
}
