//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly && !windows

package walk

import (
	"io/fs"
	"os"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/unixtime"
)

// The by-path walk's stats from the os package (Solaris, AIX, Plan 9...).

func statHandle(f handle) (info frd.Entry, dev, ino uint64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return info, 0, 0, err
	}
	info = frd.Entry{Type: fs.ModeDir, Size: fi.Size(), ModTimeNanos: unixtime.FromTime(fi.ModTime())}
	dev, ino = sysIDs(fi)
	info.Device, info.FileID = dev, ino
	return info, dev, ino, nil
}

func statOther(_ handle, dir string, e *frd.Entry, follow bool) error {
	path := joinPath(dir, e.Name)
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(path)
	if err != nil {
		return err
	}
	*e = frd.Entry{Name: e.Name, Type: fi.Mode().Type() | e.Type&fs.ModeSymlink, Size: fi.Size(), ModTimeNanos: unixtime.FromTime(fi.ModTime())}
	e.Device, e.FileID = sysIDs(fi)
	return nil
}

// devOf is the device of the directory at path, if known (through a
// final link only if follow).
func devOf(path string, follow bool) (uint64, bool) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(path)
	if err != nil {
		return 0, false
	}
	dev, _ := sysIDs(fi)
	return dev, dev != 0
}
