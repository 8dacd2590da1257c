//go:build linux || darwin

package walk

import "github.com/pbednarcik/flexreaddir/frd"

// Linux and macOS list an open descriptor with frd's bulk call.

// perWorker is the most descriptors one worker holds at once: the
// directory it lists, and one more while it finds a directory again.
const perWorker = 2

func listHandle(l *frd.Lister, dst []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	return l.AppendHandle(dst, uintptr(fd), path)
}

func statEntries(l *frd.Lister, entries []frd.Entry, fd handle, path string) ([]frd.Entry, error) {
	return l.Stat(entries, uintptr(fd), path)
}

// listPartHandle reads one part of the directory: one kernel buffer on
// Linux (frd's AppendPart).
func listPartHandle(l *frd.Lister, dst []frd.Entry, fd handle, path string) ([]frd.Entry, bool, error) {
	return l.AppendPart(dst, uintptr(fd), path)
}
