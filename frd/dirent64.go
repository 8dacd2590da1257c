package frd

import (
	"bytes"
	"encoding/binary"
	"io/fs"
)

// The linux_dirent64 record that getdents64 fills the buffer with:
//
//	d_ino    u64 @0
//	d_off    i64 @8
//	d_reclen u16 @16
//	d_type   u8  @18
//	d_name       @19, NUL-terminated, padded so d_reclen is a multiple of 8
//
// It is parsed here, on every platform, so its tests and fuzz target run
// everywhere.
const (
	dirent64NameOff = 19
	dirent64MinLen  = dirent64NameOff + 2 // one name byte and its NUL
)

// The d_type values of <dirent.h>, the same on every Linux architecture.
const (
	dtUnknown = 0
	dtFIFO    = 1
	dtChr     = 2
	dtDir     = 4
	dtBlk     = 6
	dtReg     = 8
	dtLnk     = 10
	dtSock    = 12
	dtWht     = 14
)

// dirent is one record of a parsed buffer: where its name lies in the buffer
// (its NUL follows it there) and its d_type.
type dirent struct {
	nameOff uint32
	nameLen uint16
	typ     uint8
}

// parseDirent64 appends to recs one dirent per record of buf, a buffer
// getdents64 filled, leaving out "." and ".." and records whose d_ino is 0
// (entries the file system has deleted but not yet reclaimed, which readdir
// skips too). namesLen is the sum of the appended names' lengths.
//
// A buffer that does not hold the records it claims (a record that runs past
// the end, is shorter than its header, or has no NUL-terminated, non-empty
// name) gives ErrMalformed and the records before it.
func parseDirent64(recs []dirent, buf []byte) (_ []dirent, namesLen int, err error) {
	for off := 0; off < len(buf); {
		rest := buf[off:]
		if len(rest) < dirent64MinLen {
			return recs, namesLen, ErrMalformed
		}
		reclen := int(binary.NativeEndian.Uint16(rest[16:]))
		if reclen < dirent64MinLen || reclen > len(rest) {
			return recs, namesLen, ErrMalformed
		}
		n := nameLen(rest[dirent64NameOff:reclen])
		if n <= 0 {
			return recs, namesLen, ErrMalformed
		}
		ino := binary.NativeEndian.Uint64(rest)
		name := rest[dirent64NameOff : dirent64NameOff+n]
		if ino != 0 && !isDotOrDotDot(name) {
			recs = append(recs, dirent{nameOff: uint32(off + dirent64NameOff), nameLen: uint16(n), typ: rest[18]})
			namesLen += n
		}
		off += reclen
	}
	return recs, namesLen, nil
}

// nameLen is the length of the NUL-terminated name at the start of b, or -1
// when b holds no NUL.
func nameLen(b []byte) int {
	return bytes.IndexByte(b, 0)
}

func isDotOrDotDot(name []byte) bool {
	return len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.'
}

// direntType maps a d_type to the type bits fs.DirEntry.Type reports, as
// the os package does; known is false for DT_UNKNOWN, whose type only a stat
// can tell.
func direntType(typ uint8) (mode fs.FileMode, known bool) {
	switch typ {
	case dtReg:
		return 0, true
	case dtDir:
		return fs.ModeDir, true
	case dtLnk:
		return fs.ModeSymlink, true
	case dtFIFO:
		return fs.ModeNamedPipe, true
	case dtSock:
		return fs.ModeSocket, true
	case dtChr:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case dtBlk:
		return fs.ModeDevice, true
	case dtUnknown:
		return 0, false
	}
	return fs.ModeIrregular, true // DT_WHT and anything newer
}

// The S_IFMT file types, the same on every Unix this package knows.
const (
	sIFMT   = 0o170000
	sIFSOCK = 0o140000
	sIFLNK  = 0o120000
	sIFREG  = 0o100000
	sIFBLK  = 0o060000
	sIFDIR  = 0o040000
	sIFCHR  = 0o020000
	sIFIFO  = 0o010000
)

// modeType maps the S_IFMT bits of a stat's mode to fs.FileMode type bits.
func modeType(mode uint32) fs.FileMode {
	switch mode & sIFMT {
	case sIFREG:
		return 0
	case sIFDIR:
		return fs.ModeDir
	case sIFLNK:
		return fs.ModeSymlink
	case sIFIFO:
		return fs.ModeNamedPipe
	case sIFSOCK:
		return fs.ModeSocket
	case sIFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case sIFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
