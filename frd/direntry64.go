package frd

import "encoding/binary"

// The struct direntry records of macOS's __getdirentries64, from xnu's
// bsd/sys/dirent.h, 8-byte aligned:
//
//	d_ino     u64 @0
//	d_seekoff u64 @8
//	d_reclen  u16 @16
//	d_namlen  u16 @18
//	d_type    u8  @20
//	d_name        @21, d_namlen bytes and a NUL
//
// With a buffer of at least 1,024 bytes the kernel keeps the buffer's last
// four bytes for flags, bit 0 meaning the end of the directory. Parsed here
// on every platform, like the other record formats.
const (
	direntry64NameOff = 21
	getdirentriesEOF  = 1 // GETDIRENTRIES64_EOF
)

// parseDirentry64 appends to recs one dirent per record of buf, leaving out
// "." and ".." and records with d_ino 0, as readdir does. A record that
// runs past the buffer, is shorter than its header and name, or whose name
// holds a NUL gives ErrMalformed and the records before it.
func parseDirentry64(recs []dirent, buf []byte) (_ []dirent, namesLen int, err error) {
	for off := 0; off < len(buf); {
		rest := buf[off:]
		if len(rest) < direntry64NameOff+2 {
			return recs, namesLen, ErrMalformed
		}
		reclen := int(binary.LittleEndian.Uint16(rest[16:]))
		n := int(binary.LittleEndian.Uint16(rest[18:]))
		if n == 0 || reclen < direntry64NameOff+n+1 || reclen > len(rest) {
			return recs, namesLen, ErrMalformed
		}
		name := rest[direntry64NameOff : direntry64NameOff+n]
		if nameLen(rest[direntry64NameOff:reclen]) != n {
			return recs, namesLen, ErrMalformed
		}
		if binary.LittleEndian.Uint64(rest) != 0 && !isDotOrDotDot(name) {
			recs = append(recs, dirent{nameOff: uint32(off + direntry64NameOff), nameLen: uint16(n), typ: rest[20]})
			namesLen += n
		}
		off += reclen
	}
	return recs, namesLen, nil
}

// direntriesEOF reports whether the kernel marked the end of the directory
// in buf, a buffer of len(buf) bytes of which the call returned n: the flag
// word is the buffer's last four bytes, written only for a buffer of at
// least 1,024 bytes and valid only when the records left it alone.
func direntriesEOF(buf []byte, n int) bool {
	if len(buf) < 1024 || n < 0 || n > len(buf)-4 {
		return false
	}
	return binary.LittleEndian.Uint32(buf[len(buf)-4:])&getdirentriesEOF != 0
}
