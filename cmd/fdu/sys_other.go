//go:build !unix

package main

import (
	"errors"
	"os"
)

// Without Unix stat fields, sizes are apparent sizes and hard links are
// not recognized.

type statResult struct {
	use      usage
	dev, ino uint64
	isDir    bool
	nlink    uint64
}

func fileResult(fi os.FileInfo) statResult {
	return statResult{use: usage{size: uint64(max(fi.Size(), 0)), inodes: 1, tmax: mkStamp(fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond()))}, isDir: fi.IsDir(), nlink: 1}
}

func lstatUsage(_ *scanner, path string) (statResult, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return statResult{}, false
	}
	return fileResult(fi), true
}

func statArg(_ *scanner, path string, follow bool) (statResult, error) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(path)
	if err != nil {
		return statResult{}, err
	}
	return fileResult(fi), nil
}

func timeAt(string, uintptr, string, bool) stamp { return stamp{} }

func inodeOf(string) uint64 { return 0 }

func strerror(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func newFileMode() os.FileMode { return 0o644 }

func links(os.FileInfo) uint64 { return 1 }

func sameOwner(*os.File, os.FileInfo) {}
