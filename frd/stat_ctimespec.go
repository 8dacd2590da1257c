//go:build freebsd || netbsd

package frd

import (
	"io/fs"
	"syscall"
)

// fillSys copies what the portable listing's lstat gave beyond size and
// modification time.
func fillSys(e *Entry, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.ChangeTimeNanos = st.Ctimespec.Nano()
		e.FileID = uint64(st.Ino)
		e.Allocated = int64(st.Blocks) * 512
		e.Links = uint64(st.Nlink)
		e.Device = uint64(st.Dev)
	}
}
