//go:build linux || darwin || windows

package frd

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

// The macOS full listing's decisions, getattrlistbulk called until the
// directory is done, with the system calls passed in: they then run, and
// are tested, on every platform.

// bulkCalls are what a getattrlistbulk listing calls on.
type bulkCalls struct {
	bulk    func(buf []byte) (int, error)      // getattrlistbulk: records into buf, and their count
	stat    func(e *Entry) (bool, error)       // an lstat of e.Name relative to the directory; false when gone
	plain   func(dst []Entry) ([]Entry, error) // names by __getdirentries64, then a stat each
	keepIDs bool                               // the volume's file ids persist, so FileID is filled
}

// The errors getattrlistbulk answers that the listing acts on (errno.h on
// macOS; syscall.Errno is what x/sys/unix's constants are there).
const (
	darwinEACCES  = syscall.Errno(13)
	darwinERANGE  = syscall.Errno(34)
	darwinENOTSUP = syscall.Errno(45)
)

// bulkList lists with c.bulk, storage in buf and recs.
//
//   - ENOTSUP (a file system without the call) on the first call lists by
//     names, then a stat of each regular file; so does EACCES on the first
//     call, a directory that may be read but not searched: getattrlistbulk
//     authorizes search for the whole directory before any entry
//     (vfs_attrlist.c), __getdirentries64 needs only read. The first stat
//     then fails with EACCES naming its file, as on Linux, and a walk that
//     lists again entry by entry reports each (du does). Either after
//     records is an error: the names would start at the offset the bulk
//     calls reached.
//   - A regular file's record that lacks an attribute its Entry needs (a
//     volume leaves out what it does not support) is stat'ed, as is an
//     error record or one without a type.
//   - A record without a name (xnu packs "" when it has none) is left out,
//     the rest kept, and the listing ends with an error naming the
//     directory.
func (l *Lister) bulkList(dst []Entry, buf *[]byte, recs *[]attrEntry, c bulkCalls, dirName string) ([]Entry, error) {
	start := len(dst)
	unnamed := 0
	for calls := 0; ; calls++ {
		n, err := c.bulk(*buf)
		switch {
		case calls == 0 && (errors.Is(err, darwinENOTSUP) || errors.Is(err, darwinEACCES)):
			dst, err = c.plain(dst)
			keepFileIDs(dst[start:], c.keepIDs)
			return dst, err
		case errors.Is(err, darwinERANGE) && len(*buf) < 1<<20:
			*buf = make([]byte, 2*len(*buf)) // not even one entry fitted
			continue
		case err != nil:
			return dst, &os.PathError{Op: "getattrlistbulk", Path: dirName, Err: err}
		case n == 0 && unnamed > 0:
			return dst, &os.PathError{Op: "getattrlistbulk", Path: dirName, Err: errNoName}
		case n == 0:
			return dst, nil
		}
		var u int
		*recs, u, err = parseAttrRecords((*recs)[:0], *buf, n)
		if err != nil {
			return dst, &os.PathError{Op: "getattrlistbulk", Path: dirName, Err: err}
		}
		unnamed += u
		if dst, err = l.appendAttrs(dst, *recs, c); err != nil {
			return dst, err
		}
	}
}

// parseAttrRecords parses the n records at the start of buf, leaving out
// "." and "..", and those without a name, which it counts.
func parseAttrRecords(recs []attrEntry, buf []byte, n int) ([]attrEntry, int, error) {
	unnamed := 0
	for off, i := 0, 0; i < n; i++ {
		recs = append(recs, attrEntry{})
		e := &recs[len(recs)-1]
		m, err := parseAttrRecord(buf[off:], e)
		if errors.Is(err, errNoName) {
			recs = recs[:len(recs)-1]
			unnamed++
			off += m
			continue
		}
		if err != nil {
			return recs, unnamed, err
		}
		off += m
		if isDotOrDotDot(e.name) {
			recs = recs[:len(recs)-1]
		}
	}
	return recs, unnamed, nil
}

// appendAttrs appends one Entry per record, the names of the batch sharing
// one allocation.
func (l *Lister) appendAttrs(dst []Entry, recs []attrEntry, c bulkCalls) ([]Entry, error) {
	namesLen := 0
	for i := range recs {
		namesLen += len(recs[i].name)
	}
	names := l.nameSpace(namesLen)
	for i := range recs {
		names = append(names, recs[i].name...)
	}
	all := unsafe.String(unsafe.SliceData(names), len(names))
	dst = grow(dst, len(recs))
	off := 0
	for i := range recs {
		e := &recs[i]
		out := Entry{Name: all[off : off+len(e.name)]}
		off += len(e.name)
		if e.errno != 0 || e.returned.common&attrCmnObjType == 0 || vtypeMode(e.objType) == 0 && !e.complete(c.keepIDs) {
			ok, err := c.stat(&out)
			if err != nil && !l.fail(err) {
				return dst, err
			}
			if ok {
				dst = append(dst, out)
				keepFileIDs(dst[len(dst)-1:], c.keepIDs)
			}
			continue
		}
		out.Type = vtypeMode(e.objType)
		if out.Type == 0 {
			out.Size = int64(e.dataLength)
			out.ModTimeNanos = e.modTime
			out.ChangeTimeNanos = e.chgTime
			if c.keepIDs {
				out.FileID = e.fileID
			}
			out.Allocated = allocBlocks(e.allocSize) * 512
			out.Links = uint64(e.linkCount)
			out.Device = uint64(e.devID)
		}
		dst = append(dst, out)
	}
	return dst, nil
}

// keepFileIDs applies one rule to every FileID of a macOS listing, from
// the bulk call or a stat: kept only where the volume's ids persist
// (VOL_CAP_FMT_PERSISTENTOBJECTIDS), which a record's ATTR_CMN_FILEID
// and a stat's st_ino alike are not otherwise.
func keepFileIDs(es []Entry, keepIDs bool) {
	if keepIDs {
		return
	}
	for i := range es {
		es[i].FileID = 0
	}
}

// complete reports whether the record of a regular file holds every
// attribute its Entry takes. Without FSOPT_PACK_INVAL_ATTRS a volume that
// does not support one leaves it out of the record, and its field would
// be 0 without a sign.
func (e *attrEntry) complete(keepIDs bool) bool {
	need := uint32(attrCmnDevID | attrCmnModTime | attrCmnChgTime)
	if keepIDs {
		need |= attrCmnFileID
	}
	return e.returned.common&need == need && e.returned.file&bulkFile == bulkFile
}
