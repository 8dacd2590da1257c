//go:build unix

package ignore

import (
	"os"

	"golang.org/x/sys/unix"
)

// openChecked opens name for reading if it is a regular file, looked at
// first and then again once opened (without waiting for a FIFO).
func openChecked(name string) (*os.File, error) {
	var before unix.Stat_t
	if err := unix.Stat(name, &before); err != nil {
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	if before.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, errNotRegular
	}
	f, err := os.OpenFile(name, os.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil || st.Dev != before.Dev || st.Ino != before.Ino {
		f.Close()
		return nil, errNotRegular // replaced in between
	}
	return f, nil
}
