package frd

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

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

func (l *Lister) stat(entries []Entry, _ uintptr, dir string) ([]Entry, error) {
	kept := entries[:0]
	for _, e := range entries {
		if e.Type.IsRegular() {
			fi, err := os.Lstat(joinName(dir, e.Name))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return kept, err
			}
			e.Type = fi.Mode().Type()
			if e.Type.IsRegular() {
				e.Size = fi.Size()
				e.ModTimeNanos = fi.ModTime().UnixNano()
			}
		}
		kept = append(kept, e)
	}
	return kept, nil
}
