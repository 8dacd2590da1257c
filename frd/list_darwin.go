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

// listBulk lists with getattrlistbulk.
func (l *Lister) listBulk(dst []Entry, fd int, dirName string) ([]Entry, error) {
	s := &l.sys
	keepIDs := volumeKeepsIDs(fd)
	for {
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = libsystem.Getattrlistbulk(fd, unsafe.Pointer(&bulkAttrs), s.buf, 0)
			return err
		})
		switch {
		case err == unix.ENOTSUP:
			return l.listPlain(dst, fd, dirName) // a file system without the call
		case err == unix.ERANGE && len(s.buf) < 1<<20:
			s.buf = make([]byte, 2*len(s.buf)) // not even one entry fitted
			continue
		case err != nil:
			return dst, &os.PathError{Op: "getattrlistbulk", Path: dirName, Err: err}
		case n == 0:
			return dst, nil
		}
		s.entries = s.entries[:0]
		namesLen := 0
		for off, i := 0, 0; i < n; i++ {
			s.entries = append(s.entries, attrEntry{})
			e := &s.entries[len(s.entries)-1]
			m, err := parseAttrRecord(s.buf[off:], e)
			if err != nil {
				return dst, &os.PathError{Op: "getattrlistbulk", Path: dirName, Err: err}
			}
			off += m
			if isDotOrDotDot(e.name) {
				s.entries = s.entries[:len(s.entries)-1]
				continue
			}
			namesLen += len(e.name)
		}
		names := l.nameSpace(namesLen)
		for i := range s.entries {
			names = append(names, s.entries[i].name...)
		}
		all := unsafe.String(unsafe.SliceData(names), len(names))
		dst = grow(dst, len(s.entries))
		off := 0
		for i := range s.entries {
			e := &s.entries[i]
			out := Entry{Name: all[off : off+len(e.name)]}
			off += len(e.name)
			if e.errno != 0 || e.returned.common&attrCmnObjType == 0 {
				// An error record, or one without a type: stat it alone.
				ok, err := l.statEntry(&out, fd, dirName, false)
				if err != nil {
					return dst, err
				}
				if ok {
					dst = append(dst, out)
				}
				continue
			}
			out.Type = vtypeMode(e.objType)
			if out.Type == 0 {
				out.Size = int64(e.dataLength)
				out.ModTimeNanos = e.modTime
				out.ChangeTimeNanos = e.chgTime
				if keepIDs {
					out.FileID = e.fileID
				}
				out.Allocated = allocBlocks(e.allocSize) * 512
				out.Links = uint64(e.linkCount)
				out.Device = uint64(e.devID)
			}
			dst = append(dst, out)
		}
	}
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
			if err != nil {
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

// listPlain lists a directory on a file system without getattrlistbulk:
// names by __getdirentries64, then one lstat per entry.
func (l *Lister) listPlain(dst []Entry, fd int, dirName string) ([]Entry, error) {
	start := len(dst)
	l.Names = true
	dst, err := l.listNames(dst, fd, dirName)
	l.Names = false
	kept := dst[:start]
	for _, e := range dst[start:] {
		if err == nil {
			ok, serr := l.statEntry(&e, fd, dirName, false)
			if serr != nil {
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
// when typeOnly. ok is false when the entry is gone.
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
	for _, e := range entries {
		if e.Type.IsRegular() {
			ok, err := l.statEntry(&e, int(fd), dir, false)
			if err != nil {
				return kept, err
			}
			if !ok {
				continue
			}
		}
		kept = append(kept, e)
	}
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
