package frd

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"golang.org/x/sys/windows"
)

// The Windows backend: GetFileInformationByHandleEx with the
// FileIdExtdDirectoryInfo class (the file id), falling back to
// FileFullDirectoryInfo on a volume that refuses it, and the FULL class
// for Names.

type sysLister struct {
	dirQuery
}

func (l *Lister) appendFile(dst []Entry, f *os.File) ([]Entry, error) {
	dst, err := l.appendHandle(dst, f.Fd(), f.Name())
	runtime.KeepAlive(f)
	return dst, err
}

// dirquery.go's constants are x/sys/windows' own: a difference fails to
// build (an array of nonzero or negative length).
var (
	_ [0]struct{} = [classFull - windows.FileFullDirectoryInfo]struct{}{}
	_ [0]struct{} = [classFullRestart - windows.FileFullDirectoryRestartInfo]struct{}{}
	_ [0]struct{} = [classExtd - windows.FileIdExtdDirectoryInfo]struct{}{}
	_ [0]struct{} = [classExtdRestart - windows.FileIdExtdDirectoryRestartInfo]struct{}{}
	_ [0]struct{} = [errFileNotFound - windows.ERROR_FILE_NOT_FOUND]struct{}{}
	_ [0]struct{} = [errNoMoreFiles - windows.ERROR_NO_MORE_FILES]struct{}{}
	_ [0]struct{} = [errNotSupported - windows.ERROR_NOT_SUPPORTED]struct{}{}
	_ [0]struct{} = [errInvalidParameter - windows.ERROR_INVALID_PARAMETER]struct{}{}
	_ [0]struct{} = [errInvalidLevel - windows.ERROR_INVALID_LEVEL]struct{}{}
	_ [0]struct{} = [errMoreData - windows.ERROR_MORE_DATA]struct{}{}
)

func (l *Lister) appendHandle(dst []Entry, fd uintptr, name string) ([]Entry, error) {
	h := windows.Handle(fd)
	dst, err := l.queryDir(dst, &l.sys.dirQuery, func(class uint32, buf []byte) error {
		return windows.GetFileInformationByHandleEx(h, class, &buf[0], uint32(len(buf)))
	})
	if err != nil {
		return dst, &os.PathError{Op: "GetFileInformationByHandleEx", Path: name, Err: err}
	}
	return dst, nil
}

// stat fills each regular file's entry from a handle to it, with the
// fields a full listing fills (Size, ModTimeNanos, ChangeTimeNanos, FileID,
// Allocated). Links and Device stay 0, as in a listing, though the handle
// could give them: an entry stat'ed then equals the listed one.
func (l *Lister) stat(entries []Entry, _ uintptr, dir string) ([]Entry, error) {
	kept := entries[:0]
	for _, e := range entries {
		if e.Type.IsRegular() {
			var err error
			name := e.Name
			e, err = statFile(name, joinName(dir, name))
			if errors.Is(err, fs.ErrNotExist) {
				l.vanish(name)
				continue
			}
			if err != nil {
				if l.fail(err) {
					continue
				}
				return kept, err
			}
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// statFile stats the entry name at path, a reparse point itself, not
// what it leads to.
func statFile(name, path string) (Entry, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return Entry{}, &os.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	// No access asked, as Go's os.Stat opens: attributes only, which no
	// sharing mode refuses.
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	h, err := windows.CreateFile(p, 0, share, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
		return lstatFile(name, path) // pagefile.sys and the like
	}
	if err != nil {
		return Entry{}, &os.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	e, err := handleEntry(h)
	if err != nil {
		return Entry{}, &os.PathError{Op: "GetFileInformationByHandleEx", Path: path, Err: err}
	}
	e.Name = name
	return e, nil
}

// File information classes, as x/sys/windows has no types for them.
type (
	fileBasicInfo struct {
		creation, lastAccess, lastWrite, change int64 // FILETIME
		attrs                                   uint32
		_                                       uint32 // C's size on 386 too
	}
	fileStandardInfo struct {
		allocSize, endOfFile int64
		links                uint32
		deletePending, isDir bool
		_                    [2]byte
	}
	fileAttributeTagInfo struct{ attrs, reparseTag uint32 }
	fileIDInfo           struct {
		volume uint64
		fileID [16]byte
	}
)

// handleEntry is the Entry of the open file h but its name: the type as a
// listing reads it from the attributes, and for a regular file its
// metadata from the same classes a listing's records carry.
func handleEntry(h windows.Handle) (Entry, error) {
	var b fileBasicInfo
	if err := fileInfo(h, windows.FileBasicInfo, unsafe.Pointer(&b), unsafe.Sizeof(b)); err != nil {
		return Entry{}, err
	}
	var tag fileAttributeTagInfo
	if b.attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		if err := fileInfo(h, windows.FileAttributeTagInfo, unsafe.Pointer(&tag), unsafe.Sizeof(tag)); err != nil {
			return Entry{}, err
		}
	}
	e := Entry{Type: dirInfoType(b.attrs, tag.reparseTag)}
	if e.Type != 0 {
		return e, nil // no longer a regular file: its type alone, as listed
	}
	var s fileStandardInfo
	if err := fileInfo(h, windows.FileStandardInfo, unsafe.Pointer(&s), unsafe.Sizeof(s)); err != nil {
		return Entry{}, err
	}
	e.Size, e.Allocated = s.endOfFile, s.allocSize
	e.ModTimeNanos = filetimeNanos(b.lastWrite)
	if b.change != 0 {
		e.ChangeTimeNanos = filetimeNanos(b.change)
	}
	// The 128-bit id the ID_EXTD listing carries; a volume (or Wine) that
	// refuses the class leaves it 0, unknown.
	var id fileIDInfo
	if fileInfo(h, windows.FileIdInfo, unsafe.Pointer(&id), unsafe.Sizeof(id)) == nil {
		e.FileID = fileID64(id.fileID)
	}
	return e, nil
}

func fileInfo(h windows.Handle, class uint32, p unsafe.Pointer, size uintptr) error {
	return windows.GetFileInformationByHandleEx(h, class, (*byte)(p), uint32(size))
}

// lstatFile is what os.Lstat gives, for a file no handle can be opened to:
// the type, and for a regular file the size and modification time only.
func lstatFile(name, path string) (Entry, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Name: name, Type: fi.Mode().Type()}
	if e.Type.IsRegular() {
		e.Size, e.ModTimeNanos = fi.Size(), unixtime.FromTime(fi.ModTime())
	}
	return e, nil
}

// appendPart reads to the end on Windows: one call per part is Linux's so
// far.
func (l *Lister) appendPart(dst []Entry, fd uintptr, name string) ([]Entry, bool, error) {
	dst, err := l.appendHandle(dst, fd, name)
	return dst, true, err
}
