package ignore

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openRegular opens name, following links, for reading if it is a regular
// file: looked at through an O_PATH descriptor, which opens no device and
// waits for no FIFO, then opened again through that descriptor, so that
// what is read is what was looked at.
func openRegular(name string) (*os.File, error) {
	fd, err := unix.Open(name, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, errNotRegular
	}
	f, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(fd), os.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		return openChecked(name)
	}
	return f, nil
}
