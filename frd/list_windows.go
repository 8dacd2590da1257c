package frd

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"golang.org/x/sys/windows"
)

// The Windows backend: GetFileInformationByHandleEx with the
// FileIdExtdDirectoryInfo class (the file id), falling back to
// FileFullDirectoryInfo on a volume that refuses it, and the FULL class
// for Names.

type sysLister struct {
	buf  []byte
	recs []dirInfo
}

// windowsBufSize is the buffer a Lister starts with; a test shrinks it,
// before any listing, to reach ERROR_MORE_DATA, and counts the restarts
// it causes (atomically: Listers run at once).
var (
	windowsBufSize   = bufSize
	moreDataRestarts atomic.Int64
)

func (l *Lister) appendFile(dst []Entry, f *os.File) ([]Entry, error) {
	dst, err := l.appendHandle(dst, f.Fd(), f.Name())
	runtime.KeepAlive(f)
	return dst, err
}

// Information classes, from x/sys/windows.
const (
	classFull        = windows.FileFullDirectoryInfo        // 14
	classFullRestart = windows.FileFullDirectoryRestartInfo // 15
	classExtd        = windows.FileIdExtdDirectoryInfo      // 19
	classExtdRestart = windows.FileIdExtdDirectoryRestartInfo
)

func (l *Lister) appendHandle(dst []Entry, fd uintptr, name string) ([]Entry, error) {
	s := &l.sys
	if len(s.buf) < windowsBufSize {
		s.buf = make([]byte, windowsBufSize)
	}
	l.resetNames()
	h := windows.Handle(fd)
	extd := !l.Names
	restart := l.Rewind
	skip := 0 // records to drop after a restart, already appended
	listed := 0
	for {
		class := uint32(classFull)
		switch {
		case extd && restart:
			class = classExtdRestart
		case extd:
			class = classExtd
		case restart:
			class = classFullRestart
		}
		err := windows.GetFileInformationByHandleEx(h, class, &s.buf[0], uint32(len(s.buf)))
		switch {
		case err == nil:
		case errors.Is(err, windows.ERROR_NO_MORE_FILES):
			return dst, nil
		case errors.Is(err, windows.ERROR_FILE_NOT_FOUND) && restart:
			return dst, nil // an empty directory, as Go's os package takes it
		case errors.Is(err, windows.ERROR_INVALID_PARAMETER) && extd:
			extd = false // the volume refuses the file id: the FULL class
			continue
		case errors.Is(err, windows.ERROR_MORE_DATA) && len(s.buf) < 1<<20:
			// The next record did not fit: list again from the first
			// entry with a larger buffer, dropping those already listed.
			s.buf = make([]byte, 2*len(s.buf))
			restart, skip, listed = true, listed, 0
			moreDataRestarts.Add(1)
			continue
		default:
			return dst, &os.PathError{Op: "GetFileInformationByHandleEx", Path: name, Err: err}
		}
		restart = false
		s.recs, err = parseDirInfo(s.recs[:0], s.buf, extd)
		if err != nil {
			return dst, &os.PathError{Op: "GetFileInformationByHandleEx", Path: name, Err: err}
		}
		recs := s.recs
		listed += len(recs)
		if skip > 0 {
			n := min(skip, len(recs))
			recs, skip = recs[n:], skip-n
		}
		dst = l.appendInfos(dst, recs, extd)
	}
}

// appendInfos appends one Entry per record, the names of the batch
// sharing one allocation.
func (l *Lister) appendInfos(dst []Entry, recs []dirInfo, extd bool) []Entry {
	if len(recs) == 0 {
		return dst
	}
	total := 0
	for i := range recs {
		total += wtf8Len(recs[i].name)
	}
	names := l.nameSpace(total)
	for i := range recs {
		names = appendWTF8(names, recs[i].name)
	}
	all := unsafe.String(unsafe.SliceData(names), len(names))
	dst = grow(dst, len(recs))
	off := 0
	for i := range recs {
		r := &recs[i]
		n := wtf8Len(r.name)
		e := Entry{Name: all[off : off+n], Type: dirInfoType(r.attrs, r.reparseTag)}
		off += n
		if e.Type == 0 && !l.Names {
			e.Size = r.endOfFile
			e.ModTimeNanos = filetimeNanos(r.lastWrite)
			if r.change != 0 {
				e.ChangeTimeNanos = filetimeNanos(r.change)
			}
			if extd {
				e.FileID = fileID64(r.fileID)
			}
			e.Allocated = r.allocSize
		}
		dst = append(dst, e)
	}
	return dst
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
			e, err = statFile(e.Name, joinName(dir, e.Name))
			if errors.Is(err, fs.ErrNotExist) {
				l.vanish(e.Name)
				continue
			}
			if err != nil {
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
