package frd

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/bits"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
)

// The records macOS's getattrlistbulk fills a buffer with, from xnu's
// bsd/sys/attr.h and bsd/vfs/vfs_attrlist.c. They are parsed here, on every
// platform, so their tests and fuzz target run everywhere. Both macOS
// architectures are little-endian and 64-bit, so the layout is fixed:
//
//	u32 length (of the whole record, padding included)
//	attribute_set_t returned (five u32: common, vol, dir, file, fork)
//	u32 ATTR_CMN_ERROR, when returned
//	the other returned attributes in bit order: common, then dir or file
//	the variable area: the name, NUL-terminated
//
// Fixed fields advance in 4-byte steps, so 8- and 16-byte values may sit at
// 4 mod 8; they are read with encoding/binary, never by casting.

// Common attributes (attrgroup_t commonattr).
const (
	attrCmnName           = 0x00000001
	attrCmnDevID          = 0x00000002
	attrCmnFSID           = 0x00000004
	attrCmnObjType        = 0x00000008
	attrCmnObjTag         = 0x00000010
	attrCmnObjID          = 0x00000020
	attrCmnObjPermanentID = 0x00000040
	attrCmnParObjID       = 0x00000080
	attrCmnScript         = 0x00000100
	attrCmnCrTime         = 0x00000200
	attrCmnModTime        = 0x00000400
	attrCmnChgTime        = 0x00000800
	attrCmnAccTime        = 0x00001000
	attrCmnBkupTime       = 0x00002000
	attrCmnFndrInfo       = 0x00004000
	attrCmnOwnerID        = 0x00008000
	attrCmnGrpID          = 0x00010000
	attrCmnAccessMask     = 0x00020000
	attrCmnFlags          = 0x00040000
	attrCmnGenCount       = 0x00080000
	attrCmnDocumentID     = 0x00100000
	attrCmnUserAccess     = 0x00200000
	attrCmnExtendedSec    = 0x00400000
	attrCmnUUID           = 0x00800000
	attrCmnGrpUUID        = 0x01000000
	attrCmnFileID         = 0x02000000
	attrCmnParentID       = 0x04000000
	attrCmnFullPath       = 0x08000000
	attrCmnAddedTime      = 0x10000000
	attrCmnError          = 0x20000000
	attrCmnDataProtect    = 0x40000000
	attrCmnReturnedAttrs  = 0x80000000
	attrDirLinkCount      = 0x00000001
	attrDirEntryCount     = 0x00000002
	attrDirMountStatus    = 0x00000004
	attrDirAllocSize      = 0x00000008
	attrDirIOBlockSize    = 0x00000010
	attrDirDataLength     = 0x00000020
	attrFileLinkCount     = 0x00000001
	attrFileTotalSize     = 0x00000002
	attrFileAllocSize     = 0x00000004
	attrFileIOBlockSize   = 0x00000008
	attrFileClumpSize     = 0x00000010
	attrFileDevType       = 0x00000020
	attrFileFileType      = 0x00000040
	attrFileForkCount     = 0x00000080
	attrFileForkList      = 0x00000100
	attrFileDataLength    = 0x00000200
	attrFileDataAllocSize = 0x00000400
	attrFileDataExtents   = 0x00000800
	attrFileRsrcLength    = 0x00001000
	attrFileRsrcAllocSize = 0x00002000
	attrFileRsrcExtents   = 0x00004000
	attributeSetSize      = 20 // attribute_set_t
	attrRecordMinLen      = 4 + attributeSetSize + 8
	attrReferenceSize     = 8 // attrreference_t: i32 offset, u32 length
	attrTimespecSize      = 16
)

// The request a full listing makes: name, type, device, times, file id,
// and for files the link count, allocated size and data length.
const (
	bulkCommon = attrCmnReturnedAttrs | attrCmnError | attrCmnName | attrCmnDevID |
		attrCmnObjType | attrCmnModTime | attrCmnChgTime | attrCmnFileID
	bulkFile = attrFileLinkCount | attrFileAllocSize | attrFileDataLength
)

// commonSizes and fileSizes give each fixed attribute's size in a record,
// by bit number; dirSizes likewise. 0 marks a bit that is never returned.
var (
	commonSizes = [32]uint8{
		attrReferenceSize, 4, 8, 4, 4, 8, 8, 8, // NAME DEVID FSID OBJTYPE OBJTAG OBJID OBJPERMANENTID PAROBJID
		4, 16, 16, 16, 16, 16, 32, 4, // SCRIPT CRTIME MODTIME CHGTIME ACCTIME BKUPTIME FNDRINFO OWNERID
		4, 4, 4, 4, 4, 4, attrReferenceSize, 16, // GRPID ACCESSMASK FLAGS GEN_COUNT DOCUMENT_ID USERACCESS EXTENDED_SECURITY UUID
		16, 8, 8, attrReferenceSize, 16, 4, 4, attributeSetSize, // GRPUUID FILEID PARENTID FULLPATH ADDEDTIME ERROR DATA_PROTECT RETURNED
	}
	dirSizes  = [32]uint8{4, 4, 4, 8, 4, 8}
	fileSizes = [32]uint8{4, 8, 8, 4, 4, 4, 4, 4, attrReferenceSize, 8, 8, 64, 8, 8, 64}
)

// attrSet is an attribute_set_t.
type attrSet struct {
	common, vol, dir, file, fork uint32
}

// attrEntry is one decoded getattrlistbulk record.
type attrEntry struct {
	returned   attrSet
	name       []byte // without its NUL; aliases the buffer
	errno      uint32 // ATTR_CMN_ERROR: the entry's attributes could not be read
	objType    uint32 // a vtype: VREG 1, VDIR 2, VLNK 5...
	devID      uint32
	modTime    int64 // Unix nanoseconds
	chgTime    int64
	fileID     uint64
	linkCount  uint32
	allocSize  uint64
	dataLength uint64
}

// vtypes of bsd/sys/vnode.h.
const (
	vNon  = 0
	vReg  = 1
	vDir  = 2
	vBlk  = 3
	vChr  = 4
	vLnk  = 5
	vSock = 6
	vFifo = 7
)

// vtypeModes are the fs.FileMode type bits of each vtype, by its value.
var vtypeModes = [...]fs.FileMode{
	vNon: fs.ModeIrregular, vReg: 0, vDir: fs.ModeDir, vBlk: fs.ModeDevice,
	vChr: fs.ModeDevice | fs.ModeCharDevice, vLnk: fs.ModeSymlink, vSock: fs.ModeSocket, vFifo: fs.ModeNamedPipe,
}

// vtypeMode maps an ATTR_CMN_OBJTYPE value to fs.FileMode type bits: VNON,
// VBAD and the kinds of file no directory lists are irregular.
func vtypeMode(t uint32) fs.FileMode {
	if t < uint32(len(vtypeModes)) {
		return vtypeModes[t]
	}
	return fs.ModeIrregular
}

// parseAttrRecord decodes the record at the start of buf into e and
// returns its length. A record that does not hold what it claims (a length
// past the buffer or too short for its fields, a returned attribute of no
// known size, a volume or fork attribute, a missing or out-of-record name)
// gives ErrMalformed.
func parseAttrRecord(buf []byte, e *attrEntry) (int, error) {
	*e = attrEntry{}
	if len(buf) < 4 {
		return 0, ErrMalformed
	}
	reclen := int(binary.LittleEndian.Uint32(buf))
	if reclen < attrRecordMinLen || reclen > len(buf) {
		return 0, ErrMalformed
	}
	rec := buf[:reclen]
	r := attrReader{rec: rec, off: 4}
	set, ok := r.next(attributeSetSize)
	if !ok {
		return 0, ErrMalformed
	}
	e.returned = attrSet{
		common: binary.LittleEndian.Uint32(set),
		vol:    binary.LittleEndian.Uint32(set[4:]),
		dir:    binary.LittleEndian.Uint32(set[8:]),
		file:   binary.LittleEndian.Uint32(set[12:]),
		fork:   binary.LittleEndian.Uint32(set[16:]),
	}
	ret := e.returned
	if ret.common&attrCmnReturnedAttrs == 0 || ret.common&attrCmnName == 0 || ret.vol != 0 || ret.fork != 0 || ret.dir != 0 && ret.file != 0 {
		return 0, ErrMalformed
	}
	// ERROR comes first, before NAME; then the rest in bit order.
	if ret.common&attrCmnError != 0 {
		v, ok := r.next(4)
		if !ok {
			return 0, ErrMalformed
		}
		e.errno = binary.LittleEndian.Uint32(v)
	}
	if !e.readCommon(&r, rec) || !e.readDir(&r) || !e.readFile(&r) {
		return 0, ErrMalformed
	}
	if len(e.name) == 0 {
		return reclen, errNoName
	}
	return reclen, nil
}

// readCommon reads the common attributes but the returned set and the
// error, in bit order; false for a record that does not hold them.
func (e *attrEntry) readCommon(r *attrReader, rec []byte) bool {
	for rest := e.returned.common &^ (attrCmnReturnedAttrs | attrCmnError); rest != 0; rest &= rest - 1 {
		bit := bits.TrailingZeros32(rest)
		size := int(commonSizes[bit])
		pos := r.off
		v, ok := r.next(size)
		if !ok || size == 0 {
			return false
		}
		switch 1 << bit {
		case attrCmnName:
			name, ok := attrReference(rec, pos)
			if !ok {
				return false
			}
			e.name = name // empty: errNoName, once the rest is read
		case attrCmnDevID:
			e.devID = binary.LittleEndian.Uint32(v)
		case attrCmnObjType:
			e.objType = binary.LittleEndian.Uint32(v)
		case attrCmnModTime:
			e.modTime = timespecNanos(v)
		case attrCmnChgTime:
			e.chgTime = timespecNanos(v)
		case attrCmnFileID:
			e.fileID = binary.LittleEndian.Uint64(v)
		}
	}
	return true
}

// readDir reads a directory's attributes.
func (e *attrEntry) readDir(r *attrReader) bool {
	for rest := e.returned.dir; rest != 0; rest &= rest - 1 {
		bit := bits.TrailingZeros32(rest)
		v, ok := r.next(int(dirSizes[bit]))
		if !ok || dirSizes[bit] == 0 {
			return false
		}
		if 1<<bit == attrDirLinkCount {
			e.linkCount = binary.LittleEndian.Uint32(v)
		}
	}
	return true
}

// readFile reads a file's attributes.
func (e *attrEntry) readFile(r *attrReader) bool {
	for rest := e.returned.file; rest != 0; rest &= rest - 1 {
		bit := bits.TrailingZeros32(rest)
		v, ok := r.next(int(fileSizes[bit]))
		if !ok || fileSizes[bit] == 0 {
			return false
		}
		switch 1 << bit {
		case attrFileLinkCount:
			e.linkCount = binary.LittleEndian.Uint32(v)
		case attrFileAllocSize:
			e.allocSize = binary.LittleEndian.Uint64(v)
		case attrFileDataLength:
			e.dataLength = binary.LittleEndian.Uint64(v)
		}
	}
	return true
}

// errNoName is a whole record whose name is empty: xnu packs "" when it
// has no name to give. Only that entry is lost; the listing goes on and
// then says so.
var errNoName = fmt.Errorf("%w: an entry without a name", ErrMalformed)

// attrReader hands out the fixed fields of one record in turn.
type attrReader struct {
	rec []byte
	off int
}

func (r *attrReader) next(n int) ([]byte, bool) {
	if n > len(r.rec)-r.off {
		return nil, false
	}
	v := r.rec[r.off : r.off+n]
	r.off += n
	return v, true
}

// attrReference resolves the attrreference_t at pos in rec: its offset is
// relative to the reference itself and its length counts the NUL. The
// name must lie inside the record, end in its NUL, and have no other; it
// may be empty (the NUL alone), and as long as the record holds (xnu's
// names fit 765 bytes, but nothing here depends on it).
func attrReference(rec []byte, pos int) ([]byte, bool) {
	off := int64(int32(binary.LittleEndian.Uint32(rec[pos:])))
	n := int64(binary.LittleEndian.Uint32(rec[pos+4:]))
	start := int64(pos) + off
	if n < 1 || start < 0 || start+n > int64(len(rec)) {
		return nil, false
	}
	name := rec[start : start+n]
	if name[n-1] != 0 || nameLen(name) != int(n-1) {
		return nil, false
	}
	return name[:n-1], true
}

// timespecNanos reads a 64-bit struct timespec as Unix nanoseconds.
func timespecNanos(v []byte) int64 {
	sec := int64(binary.LittleEndian.Uint64(v))
	nsec := int64(binary.LittleEndian.Uint64(v[8:]))
	return unixtime.Nanos(sec, nsec)
}

// allocBlocks is st_blocks as xnu's vn_stat derives it from ALLOCSIZE:
// 512-byte blocks, rounded up.
func allocBlocks(allocSize uint64) int64 {
	return int64((allocSize + 511) / 512)
}

// Volume capability bits (vol_capabilities_attr_t, VOL_CAPABILITIES_FORMAT)
// and the attributes fgetattrlist asks for them with.
const (
	attrVolInfo          = 0x80000000
	attrVolCapabilities  = 0x00020000
	volCapFmtPersistIDs  = 0x00000001 // VOL_CAP_FMT_PERSISTENTOBJECTIDS
	volCapFmtCaseSens    = 0x00000100 // VOL_CAP_FMT_CASE_SENSITIVE
	volCapFmtDirHardLink = 0x00040000 // VOL_CAP_FMT_DIR_HARDLINKS
)

// parseVolCaps reads an fgetattrlist answer to ATTR_CMN_RETURNED_ATTRS |
// ATTR_VOL_INFO | ATTR_VOL_CAPABILITIES: u32 length, the returned set, and
// vol_capabilities_attr_t (capabilities[4], then valid[4]). It returns the
// format group's capabilities and valid bits; ok is false when the answer
// leaves the capabilities out, and err is ErrMalformed when it does not
// hold what it claims.
func parseVolCaps(buf []byte) (caps, valid uint32, ok bool, err error) {
	if len(buf) < 4+attributeSetSize {
		return 0, 0, false, ErrMalformed
	}
	n := int(binary.LittleEndian.Uint32(buf))
	if n < 4+attributeSetSize || n > len(buf) {
		return 0, 0, false, ErrMalformed
	}
	vol := binary.LittleEndian.Uint32(buf[4+4:])
	if vol&attrVolCapabilities == 0 {
		return 0, 0, false, nil
	}
	if n < 4+attributeSetSize+32 {
		return 0, 0, false, ErrMalformed
	}
	v := buf[4+attributeSetSize:]
	return binary.LittleEndian.Uint32(v), binary.LittleEndian.Uint32(v[16:]), true, nil
}

// parseDirLinkCount reads an fgetattrlist answer to ATTR_CMN_RETURNED_ATTRS
// and ATTR_DIR_LINKCOUNT; ok is false when the count was not returned.
func parseDirLinkCount(buf []byte) (links uint32, ok bool, err error) {
	if len(buf) < 4+attributeSetSize {
		return 0, false, ErrMalformed
	}
	n := int(binary.LittleEndian.Uint32(buf))
	if n < 4+attributeSetSize || n > len(buf) {
		return 0, false, ErrMalformed
	}
	if binary.LittleEndian.Uint32(buf[4+8:])&attrDirLinkCount == 0 {
		return 0, false, nil
	}
	if n < 4+attributeSetSize+4 {
		return 0, false, ErrMalformed
	}
	return binary.LittleEndian.Uint32(buf[4+attributeSetSize:]), true, nil
}
