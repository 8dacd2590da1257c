//go:build unix

package message

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// Strerror is glibc's message for the errno inside err.
func Strerror(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	if m, ok := glibcMessages[errno]; ok {
		return m
	}
	s := errno.Error()
	if s != "" {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

var glibcMessages = map[syscall.Errno]string{
	unix.EACCES:       "Permission denied",
	unix.ENOENT:       "No such file or directory",
	unix.ENOTDIR:      "Not a directory",
	unix.ELOOP:        "Too many levels of symbolic links",
	unix.ENAMETOOLONG: "File name too long",
	unix.EIO:          "Input/output error",
	unix.EPERM:        "Operation not permitted",
	unix.EMFILE:       "Too many open files",
	unix.ENOMEM:       "Cannot allocate memory",
	unix.EOVERFLOW:    "Value too large for defined data type",
}
