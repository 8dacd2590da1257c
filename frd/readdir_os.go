//go:build !linux && !darwin

package frd

import (
	"os"
	"syscall"
)

// readDir opens name with the os package, where no open of the backend's
// own is needed (Windows and the portable fallback).
func readDir(name string) ([]Entry, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	l := listerPool.Get().(*Lister)
	entries, err := l.appendFile(nil, f)
	listerPool.Put(l)
	return entries, err
}
