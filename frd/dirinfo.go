package frd

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
)

// The records Windows's GetFileInformationByHandleEx fills a buffer with
// for the FileFullDirectoryInfo and FileIdExtdDirectoryInfo classes
// (mingw-w64 winbase.h), little-endian, each record 8-aligned:
//
//	field                         FULL   ID_EXTD
//	NextEntryOffset u32            @0     @0    (0: the last record)
//	FileIndex u32                  @4     @4
//	CreationTime i64               @8     @8    (100 ns since 1601)
//	LastAccessTime i64             @16    @16
//	LastWriteTime i64              @24    @24
//	ChangeTime i64                 @32    @32
//	EndOfFile i64                  @40    @40
//	AllocationSize i64             @48    @48
//	FileAttributes u32             @56    @56
//	FileNameLength u32 (bytes)     @60    @60
//	EaSize u32                     @64    @64   (the reparse tag, for a reparse point)
//	ReparsePointTag u32                   @68
//	FileId [16]byte                       @72
//	FileName (UTF-16)              @68    @88
//
// Parsed here, on every platform; offsets are written out rather than
// taken from unsafe.Sizeof, which differs on 386.
const (
	fullDirInfoNameOff   = 68
	idExtdDirInfoNameOff = 88

	fileAttributeDirectory    = 0x00000010
	fileAttributeReparsePoint = 0x00000400

	ioReparseTagSymlink    = 0xA000000C
	ioReparseTagMountPoint = 0xA0000003
	ioReparseTagDedup      = 0x80000013
	ioReparseTagAFUnix     = 0x80000023
	reparseTagSurrogate    = 0x20000000 // IsReparseTagNameSurrogate

	// filetimeUnixEpoch is 1970-01-01 in 100 ns intervals since 1601-01-01.
	filetimeUnixEpoch = 116444736000000000
)

// dirInfo is one decoded record.
type dirInfo struct {
	name       []byte // the UTF-16LE name, FileNameLength bytes; aliases the buffer
	attrs      uint32
	reparseTag uint32
	endOfFile  int64
	allocSize  int64
	lastWrite  int64 // FILETIME
	change     int64 // FILETIME
	fileID     [16]byte
}

// parseDirInfo appends to recs the records of buf, a buffer filled with the
// FULL (extd false) or ID_EXTD (extd true) class, leaving out "." and "..".
// A record whose header or name runs past the buffer or into the next
// record, or whose name is empty or of odd length, gives ErrMalformed and
// the records before it.
func parseDirInfo(recs []dirInfo, buf []byte, extd bool) ([]dirInfo, error) {
	nameOff := fullDirInfoNameOff
	if extd {
		nameOff = idExtdDirInfoNameOff
	}
	for off := 0; off < len(buf); {
		rest := buf[off:]
		if len(rest) < nameOff {
			return recs, ErrMalformed
		}
		next := int64(binary.LittleEndian.Uint32(rest))
		n := int64(binary.LittleEndian.Uint32(rest[60:]))
		end := int64(nameOff) + n
		if n == 0 || n%2 != 0 || end > int64(len(rest)) || next != 0 && (next < end || next > int64(len(rest))) {
			return recs, ErrMalformed
		}
		r := dirInfo{
			name:      rest[nameOff:end],
			attrs:     binary.LittleEndian.Uint32(rest[56:]),
			endOfFile: int64(binary.LittleEndian.Uint64(rest[40:])),
			allocSize: int64(binary.LittleEndian.Uint64(rest[48:])),
			lastWrite: int64(binary.LittleEndian.Uint64(rest[24:])),
			change:    int64(binary.LittleEndian.Uint64(rest[32:])),
		}
		if r.attrs&fileAttributeReparsePoint != 0 {
			r.reparseTag = binary.LittleEndian.Uint32(rest[64:]) // EaSize carries it
		}
		if extd {
			r.reparseTag = binary.LittleEndian.Uint32(rest[68:])
			copy(r.fileID[:], rest[72:88])
		}
		if !isDotOrDotDotUTF16(r.name) {
			recs = append(recs, r)
		}
		if next == 0 {
			return recs, nil
		}
		off += int(next)
	}
	return recs, nil
}

func isDotOrDotDotUTF16(name []byte) bool {
	return len(name) == 2 && name[0] == '.' && name[1] == 0 ||
		len(name) == 4 && name[0] == '.' && name[1] == 0 && name[2] == '.' && name[3] == 0
}

// dirInfoType maps a record's attributes and reparse tag to fs.FileMode
// type bits as Go's os package does since Go 1.23: a name-surrogate
// reparse point (a symbolic link, a junction) is never a directory;
// symbolic links are ModeSymlink, AF_UNIX sockets ModeSocket, dedup files
// stay regular, and every other reparse point is ModeIrregular.
func dirInfoType(attrs, tag uint32) fs.FileMode {
	reparse := attrs&fileAttributeReparsePoint != 0
	var m fs.FileMode
	if attrs&fileAttributeDirectory != 0 && !(reparse && tag&reparseTagSurrogate != 0) {
		m = fs.ModeDir
	}
	if reparse {
		switch tag {
		case ioReparseTagSymlink:
			m |= fs.ModeSymlink
		case ioReparseTagAFUnix:
			m |= fs.ModeSocket
		case ioReparseTagDedup:
		default:
			m |= fs.ModeIrregular
		}
	}
	return m
}

// filetimeNanos converts 100 ns intervals since 1601 to Unix nanoseconds,
// saturating as unixtime.Nanos does (FILETIME reaches the year 30828).
func filetimeNanos(t int64) int64 {
	sec, rem := t/10_000_000, t%10_000_000
	if rem < 0 {
		sec, rem = sec-1, rem+10_000_000
	}
	return unixtime.Nanos(sec-filetimeUnixEpoch/10_000_000, rem*100)
}

// fileID64 is the 128-bit FILE_ID_128 when it fits 64 bits, else 0
// (unknown): NTFS ids fit, ReFS ones may not.
func fileID64(id [16]byte) uint64 {
	if binary.LittleEndian.Uint64(id[8:]) != 0 {
		return 0
	}
	return binary.LittleEndian.Uint64(id[:])
}

// appendWTF8 appends the UTF-16LE name to dst as WTF-8, as Go's syscall
// package decodes Windows names: valid surrogate pairs become one rune, an
// unpaired surrogate its own 3-byte sequence, so no name is lost. name has
// an even length.
func appendWTF8(dst, name []byte) []byte {
	// Leading ASCII runs, in blocks, by the fastest converter here.
	units := len(name) / 2
	start := 0
	if units >= 8 {
		dst = slices.Grow(dst, units)
		n := asciiBlocks(unsafe.SliceData(dst[len(dst):cap(dst)]), unsafe.SliceData(name), units)
		dst = dst[:len(dst)+n]
		start = 2 * n
	}
	return appendWTF8Go(dst, name[start:])
}

// asciiImpl is one block converter, for the tests to run each.
type asciiImpl struct {
	name string
	fn   func(dst, src *byte, units int) int
}

// asciiGo converts no block: the decoder's pure-Go path does all.
func asciiGo(dst, src *byte, units int) int { return 0 }

// appendWTF8Go is the decoder in Go: every code unit, one at a time.
func appendWTF8Go(dst, name []byte) []byte {
	for i := 0; i+1 < len(name); i += 2 {
		u := rune(binary.LittleEndian.Uint16(name[i:]))
		switch {
		case u < 0x80:
			dst = append(dst, byte(u))
			continue
		case u >= 0xD800 && u < 0xDC00 && i+3 < len(name):
			if lo := rune(binary.LittleEndian.Uint16(name[i+2:])); lo >= 0xDC00 && lo < 0xE000 {
				dst = utf8.AppendRune(dst, 0x10000+(u-0xD800)<<10+(lo-0xDC00))
				i += 2
				continue
			}
		}
		if u >= 0xD800 && u < 0xE000 {
			// An unpaired surrogate: its own 3-byte WTF-8 sequence.
			dst = append(dst, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
			continue
		}
		dst = utf8.AppendRune(dst, u)
	}
	return dst
}

// wtf8Len is the length appendWTF8 gives name, for sizing one allocation.
func wtf8Len(name []byte) int {
	n := 0
	for i := 0; i+1 < len(name); i += 2 {
		u := binary.LittleEndian.Uint16(name[i:])
		switch {
		case u < 0x80:
			n++
		case u < 0x800:
			n += 2
		case u >= 0xD800 && u < 0xDC00 && i+3 < len(name):
			if lo := binary.LittleEndian.Uint16(name[i+2:]); lo >= 0xDC00 && lo < 0xE000 {
				n += 4
				i += 2
				continue
			}
			n += 3
		default:
			n += 3
		}
	}
	return n
}
