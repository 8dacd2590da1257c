//go:build windows

package walk

import (
	"io/fs"
	"os"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/windows"
)

// The Windows walk is by path, as on the systems without a descriptor walk
// (bypath.go), but every stat is of an open handle, whose volume serial
// number and file index are the device and inode that loop detection,
// OneFileSystem and HardLinksOnce need. A directory swapped for a link
// between the check and the open is not detected.

func statHandle(f handle) (info frd.Entry, dev, ino uint64, err error) {
	info, _, err = handleInfo(windows.Handle(f.Fd()))
	if err != nil {
		return info, 0, 0, &os.PathError{Op: "GetFileInformationByHandle", Path: f.Name(), Err: err}
	}
	info.Type = fs.ModeDir
	return info, info.Device, info.FileID, nil
}

// filetimeUnixEpoch is 1970-01-01 in FILETIME's 100 ns intervals since 1601.
const filetimeUnixEpoch = 116444736000000000

// File information classes x/sys/windows has no types for, laid out as
// FILE_BASIC_INFO and FILE_STANDARD_INFO (padded to their C sizes on 386).
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

type fileStandardInfo struct {
	AllocationSize, EndOfFile int64
	NumberOfLinks             uint32
	DeletePending, Directory  bool
	_                         [2]byte
}

// handleInfo is the metadata of the open file h, every field but Name and
// Type, and its attributes. The change time and the allocation come from
// two more classes: a file system that refuses one leaves its field 0
// (unknown) rather than fail the stat.
func handleInfo(h windows.Handle) (frd.Entry, uint32, error) {
	var bh windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bh); err != nil {
		return frd.Entry{}, 0, err
	}
	e := frd.Entry{
		Size:         int64(bh.FileSizeHigh)<<32 | int64(bh.FileSizeLow),
		ModTimeNanos: bh.LastWriteTime.Nanoseconds(),
		FileID:       uint64(bh.FileIndexHigh)<<32 | uint64(bh.FileIndexLow),
		Links:        uint64(bh.NumberOfLinks),
		Device:       uint64(bh.VolumeSerialNumber),
	}
	var basic fileBasicInfo
	if getInfo(h, windows.FileBasicInfo, unsafe.Pointer(&basic), unsafe.Sizeof(basic)) == nil && basic.ChangeTime != 0 {
		e.ChangeTimeNanos = (basic.ChangeTime - filetimeUnixEpoch) * 100
	}
	var std fileStandardInfo
	if getInfo(h, windows.FileStandardInfo, unsafe.Pointer(&std), unsafe.Sizeof(std)) == nil {
		e.Allocated = std.AllocationSize
	}
	return e, bh.FileAttributes, nil
}

func getInfo(h windows.Handle, class uint32, p unsafe.Pointer, size uintptr) error {
	return windows.GetFileInformationByHandleEx(h, class, (*byte)(p), uint32(size))
}

// statOther fills e, an entry of dir that is neither a regular file nor a
// directory, from a handle to it: to the link itself, or when follow is set
// and it is a symbolic link, to what it leads to. Only symbolic links are
// followed, as a stat through anything else is the thing itself on Unix.
func statOther(_ handle, dir string, e *frd.Entry, follow bool) error {
	path := joinPath(dir, e.Name)
	follow = follow && e.Type&fs.ModeSymlink != 0
	h, err := openAttrs(path, follow)
	if err != nil {
		return &os.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	info, attrs, err := handleInfo(h)
	if err != nil {
		return &os.PathError{Op: "GetFileInformationByHandle", Path: path, Err: err}
	}
	info.Name, info.Type = e.Name, e.Type
	if follow && attrs&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		info.Type |= fs.ModeDir // a link to a directory, as on Unix
	}
	*e = info
	return nil
}

// openAttrs opens path for its metadata only (no access asked, as Go's
// os.Stat opens), a directory too, and a reparse point itself unless
// follow is set.
func openAttrs(path string, follow bool) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return windows.InvalidHandle, err
	}
	flags := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS)
	if !follow {
		flags |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	return windows.CreateFile(p, 0, share, nil, windows.OPEN_EXISTING, flags, 0)
}

// devOf is not known without opening the directory.
func devOf(string, bool) (uint64, bool) { return 0, false }
