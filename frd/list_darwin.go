package frd

import (
	"os"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/libsystem"
	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"golang.org/x/sys/unix"
)

// The macOS backend: getattrlistbulk for a full listing, __getdirentries64
// for Names, fgetattrlist for the volume's capabilities. NOT VERIFIED ON A
// MAC: this builds and its record parsers are tested and fuzzed on Linux,
// but no macOS binary has run it (see the README).

type sysLister struct {
	buf     []byte      // what the kernel fills
	entries []attrEntry // the parsed records of one call
	recs    []dirent    // the parsed records of one getdirentries64 call
}

// attrList is struct attrlist as the kernel reads it: 24 bytes, bitmapcount
// 5 (ATTR_BIT_MAP_COUNT), then the five attribute groups.
type attrList struct {
	bitmapCount uint16
	reserved    uint16
	common      uint32
	vol         uint32
	dir         uint32
	file        uint32
	fork        uint32
}

// bulkAttrs is the request of a full listing.
var bulkAttrs = attrList{bitmapCount: 5, common: bulkCommon, file: bulkFile}

func (l *Lister) list(dst []Entry, fd int, dirName string) ([]Entry, error) {
	if l.sys.buf == nil {
		l.sys.buf = make([]byte, bufSize)
	}
	l.resetNames()
	if l.Names {
		return l.listNames(dst, fd, dirName)
	}
	return l.listBulk(dst, fd, dirName)
}

// bulklist.go's errno values are macOS's own: a difference fails to build.
var (
	_ [0]struct{} = [darwinEACCES - unix.EACCES]struct{}{}
	_ [0]struct{} = [darwinERANGE - unix.ERANGE]struct{}{}
	_ [0]struct{} = [darwinENOTSUP - unix.ENOTSUP]struct{}{}
)

// listBulk lists with getattrlistbulk (bulklist.go decides).
func (l *Lister) listBulk(dst []Entry, fd int, dirName string) ([]Entry, error) {
	s := &l.sys
	keepIDs := volumeKeepsIDs(fd)
	return l.bulkList(dst, &s.buf, &s.entries, bulkCalls{
		bulk: func(buf []byte) (n int, err error) {
			err = ignoringEINTR(func() (err error) {
				n, err = libsystem.Getattrlistbulk(fd, unsafe.Pointer(&bulkAttrs), buf, 0)
				return err
			})
			return n, err
		},
		stat:    func(e *Entry) (bool, error) { return l.statEntry(e, fd, dirName, false) },
		plain:   func(dst []Entry) ([]Entry, error) { return l.listPlain(dst, fd, dirName) },
		keepIDs: keepIDs,
	}, dirName)
}

// listNames lists with __getdirentries64, reading the end-of-directory
// flag from the buffer's last word so a directory that fits the buffer
// takes one call.
func (l *Lister) listNames(dst []Entry, fd int, dirName string) ([]Entry, error) {
	s := &l.sys
	var base int64
	for {
		flags := s.buf[len(s.buf)-4:]
		clear(flags)
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = libsystem.Getdirentries64(fd, s.buf, &base)
			return err
		})
		if err != nil {
			return dst, &os.PathError{Op: "getdirentries64", Path: dirName, Err: err}
		}
		if n <= 0 {
			return dst, nil
		}
		buf := s.buf[:n]
		var namesLen int
		s.recs, namesLen, err = parseDirentry64(s.recs[:0], buf)
		if err != nil {
			return dst, &os.PathError{Op: "getdirentries64", Path: dirName, Err: err}
		}
		dst, err = l.appendNames(dst, fd, dirName, buf, namesLen)
		if err != nil || direntriesEOF(s.buf, n) {
			return dst, err
		}
	}
}

// appendNames appends the entries of parsed records, stat'ing those whose
// record carries no type.
func (l *Lister) appendNames(dst []Entry, fd int, dirName string, buf []byte, namesLen int) ([]Entry, error) {
	names := l.nameSpace(namesLen)
	for _, r := range l.sys.recs {
		names = append(names, buf[r.nameOff:r.nameOff+uint32(r.nameLen)]...)
	}
	all := unsafe.String(unsafe.SliceData(names), len(names))
	dst = grow(dst, len(l.sys.recs))
	off := 0
	for _, r := range l.sys.recs {
		e := Entry{Name: all[off : off+int(r.nameLen)]}
		off += int(r.nameLen)
		typ, known := direntType(r.typ)
		if !known {
			ok, err := l.statEntry(&e, fd, dirName, true)
			if err != nil && !l.fail(err) {
				return dst, err
			}
			if !ok {
				continue
			}
		} else {
			e.Type = typ
		}
		dst = append(dst, e)
	}
	return dst, nil
}

// listPlain lists a directory without getattrlistbulk (a file system
// without it, or one that may be read but not searched): names and types
// by __getdirentries64, then one lstat per regular file.
func (l *Lister) listPlain(dst []Entry, fd int, dirName string) ([]Entry, error) {
	start := len(dst)
	l.Names = true
	dst, err := l.listNames(dst, fd, dirName)
	l.Names = false
	kept := dst[:start]
	for _, e := range dst[start:] {
		if err == nil && e.Type.IsRegular() { // the others' types came with the names
			ok, serr := l.statEntry(&e, fd, dirName, false)
			if serr != nil && !l.fail(serr) {
				return kept, serr
			}
			if !ok {
				continue
			}
		}
		kept = append(kept, e)
	}
	return kept, err
}

// statEntry fills e from an lstat of it relative to fd: only its type
// when typeOnly. ok is false when the entry is gone. Its callers apply
// keepFileIDs, the bulk listing's rule for FileID.
func (l *Lister) statEntry(e *Entry, fd int, dirName string, typeOnly bool) (ok bool, err error) {
	var st unix.Stat_t
	err = ignoringEINTR(func() error { return unix.Fstatat(fd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err == unix.ENOENT {
		l.vanish(e.Name)
		return false, nil
	}
	if err != nil {
		return false, &os.PathError{Op: "lstat", Path: joinName(dirName, e.Name), Err: err}
	}
	e.Type = modeType(uint32(st.Mode))
	if e.Type == 0 && !typeOnly {
		e.Size = st.Size
		e.ModTimeNanos = unixtime.Nanos(st.Mtim.Sec, st.Mtim.Nsec)
		e.ChangeTimeNanos = unixtime.Nanos(st.Ctim.Sec, st.Ctim.Nsec)
		e.FileID = st.Ino
		e.Allocated = st.Blocks * 512
		e.Links = uint64(st.Nlink)
		e.Device = uint64(uint32(st.Dev))
	}
	return true, nil
}

func (l *Lister) stat(entries []Entry, fd uintptr, dir string) ([]Entry, error) {
	kept := entries[:0]
	keepIDs, known := false, false
	for _, e := range entries {
		if e.Type.IsRegular() {
			if !known {
				keepIDs, known = volumeKeepsIDs(int(fd)), true
			}
			ok, err := l.statEntry(&e, int(fd), dir, false)
			if err != nil && !l.fail(err) {
				return kept, err
			}
			if !ok {
				continue
			}
		}
		kept = append(kept, e)
	}
	keepFileIDs(kept, keepIDs)
	return kept, nil
}

// volumeKeepsIDs is whether a listing may trust FileID on fd's volume: an
// unknown PersistentIDs bit counts as kept, a volume that cannot be asked
// as not, and nothing is remembered, so the next listing asks again.
func volumeKeepsIDs(fd int) bool {
	caps, err := Volume(uintptr(fd))
	if err != nil {
		return false
	}
	set, known := caps.PersistentIDs()
	return !known || set
}

// appendPart reads to the end on macOS: one call per part is Linux's so far.
func (l *Lister) appendPart(dst []Entry, fd uintptr, name string) ([]Entry, bool, error) {
	dst, err := l.list(dst, int(fd), name)
	return dst, true, err
}
