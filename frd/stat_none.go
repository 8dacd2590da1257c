//go:build !linux && !darwin && !windows && !freebsd && !netbsd && !openbsd && !dragonfly && !solaris && !illumos

package frd

import "io/fs"

// fillSys leaves the change time, file id, allocation, links and device
// unknown (zero) where the portable lstat does not give them in one form.
func fillSys(*Entry, fs.FileInfo) {}
