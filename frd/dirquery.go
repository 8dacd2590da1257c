//go:build linux || darwin || windows

package frd

import (
	"errors"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The Windows listing's protocol, GetFileInformationByHandleEx called
// until the directory is done, with the call itself passed in: the
// protocol's error paths then run, and are tested, on every platform.

// The classes of FILE_INFO_BY_HANDLE_CLASS the listing uses (winbase.h):
// each with a twin that restarts the scan at the directory's first entry.
const (
	classFull        = 14 // FileFullDirectoryInfo
	classFullRestart = 15 // FileFullDirectoryRestartInfo
	classExtd        = 19 // FileIdExtdDirectoryInfo
	classExtdRestart = 20 // FileIdExtdDirectoryRestartInfo
)

// The Win32 errors the protocol answers (winerror.h), as syscall.Errno,
// which is what x/sys/windows' ERROR_ constants are.
const (
	errFileNotFound     = syscall.Errno(2)
	errNoMoreFiles      = syscall.Errno(18)
	errNotSupported     = syscall.Errno(50)
	errInvalidParameter = syscall.Errno(87)
	errInvalidLevel     = syscall.Errno(124)
	errMoreData         = syscall.Errno(234)
)

// windowsBufSize is the buffer a listing starts with; a test shrinks it,
// before any listing, to reach ERROR_MORE_DATA, and counts the restarts
// it causes (atomically: Listers run at once).
var (
	windowsBufSize   = bufSize
	moreDataRestarts atomic.Int64
)

// dirQuery is the protocol's storage, kept by a Lister between calls.
type dirQuery struct {
	buf  []byte
	recs []dirInfo
}

// queryDir appends the entries query reads, one call per buffer. query
// fills buf with records of class.
//
//   - ERROR_FILE_NOT_FOUND before any record is an empty directory (a
//     volume's root): a handle's first query answers it (MS-FSA: the first
//     query is the one without a search pattern yet, whatever the class),
//     a later one ERROR_NO_MORE_FILES. After records it is an error: it is
//     also what STATUS_OBJECT_NAME_NOT_FOUND maps to, which a filter
//     driver or redirector may answer.
//   - A volume or filter driver that has no ID_EXTD class answers
//     ERROR_INVALID_PARAMETER, ERROR_NOT_SUPPORTED or ERROR_INVALID_LEVEL:
//     the FULL class then, without file ids.
//   - ERROR_MORE_DATA (the next record did not fit) restarts from the
//     first entry with a larger buffer, skipping what was appended, when
//     the listing began at the first entry (Rewind); from a handle read
//     before, where the position is not known, it is an error.
func (l *Lister) queryDir(dst []Entry, q *dirQuery, query func(class uint32, buf []byte) error) ([]Entry, error) {
	if len(q.buf) < windowsBufSize {
		q.buf = make([]byte, windowsBufSize)
	}
	l.resetNames()
	extd := !l.Names
	restart := l.Rewind
	fromStart := l.Rewind // the records since the scan's start are counted
	skip := 0             // records to drop after a restart, already appended
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
		err := query(class, q.buf)
		switch {
		case err == nil:
		case errors.Is(err, errNoMoreFiles), errors.Is(err, errFileNotFound) && listed == 0 && skip == 0:
			return dst, nil
		case extd && (errors.Is(err, errInvalidParameter) || errors.Is(err, errNotSupported) || errors.Is(err, errInvalidLevel)):
			extd = false // the volume refuses the file id: the FULL class
			continue
		case errors.Is(err, errMoreData) && fromStart && len(q.buf) < 1<<20:
			q.buf = make([]byte, 2*len(q.buf))
			restart, skip, listed = true, listed, 0
			moreDataRestarts.Add(1)
			continue
		default:
			return dst, err
		}
		restart = false
		q.recs, err = parseDirInfo(q.recs[:0], q.buf, extd)
		if err != nil {
			return dst, err
		}
		recs := q.recs
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
