package frd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// attrRecordBuilder writes one getattrlistbulk record as xnu lays it out.
type attrRecordBuilder struct {
	b       []byte
	nameRef int // where the name's attrreference_t is, or -1
}

func newAttrRecord(ret attrSet) *attrRecordBuilder {
	r := &attrRecordBuilder{nameRef: -1}
	r.u32(0) // length, patched by finish
	for _, v := range []uint32{ret.common, ret.vol, ret.dir, ret.file, ret.fork} {
		r.u32(v)
	}
	return r
}

func (r *attrRecordBuilder) u32(v uint32) *attrRecordBuilder {
	r.b = binary.LittleEndian.AppendUint32(r.b, v)
	return r
}

func (r *attrRecordBuilder) u64(v uint64) *attrRecordBuilder {
	r.b = binary.LittleEndian.AppendUint64(r.b, v)
	return r
}

func (r *attrRecordBuilder) ts(sec, nsec int64) *attrRecordBuilder {
	return r.u64(uint64(sec)).u64(uint64(nsec))
}

func (r *attrRecordBuilder) name() *attrRecordBuilder {
	r.nameRef = len(r.b)
	return r.u64(0)
}

// finish appends the name and its NUL, pads the record to 8 bytes, and
// fills in the reference and the length.
func (r *attrRecordBuilder) finish(name string) []byte {
	if r.nameRef >= 0 {
		binary.LittleEndian.PutUint32(r.b[r.nameRef:], uint32(len(r.b)-r.nameRef))
		binary.LittleEndian.PutUint32(r.b[r.nameRef+4:], uint32(len(name)+1))
		r.b = append(append(r.b, name...), 0)
	}
	for len(r.b)%8 != 0 {
		r.b = append(r.b, 0)
	}
	binary.LittleEndian.PutUint32(r.b, uint32(len(r.b)))
	return r.b
}

// fileRecord is a full listing's record for a regular file, with or
// without ATTR_CMN_ERROR (which shifts every later field by four bytes, so
// the 8- and 16-byte ones sit at 4 mod 8).
func fileRecord(name string, withError bool) []byte {
	common := uint32(bulkCommon)
	if !withError {
		common &^= attrCmnError
	}
	r := newAttrRecord(attrSet{common: common, file: bulkFile})
	if withError {
		r.u32(0)
	}
	r.name().u32(0x01000004).u32(vReg).ts(1700000000, 123456789).ts(1700000001, 5).u64(0xfeedface12345678)
	r.u32(3).u64(8192).u64(5000)
	return r.finish(name)
}

func TestParseAttrRecord(t *testing.T) {
	long := strings.Repeat("€", 255) // 765 bytes, the longest name
	tests := []struct {
		name string
		buf  []byte
		want attrEntry
		err  error
	}{
		{
			name: "regular file, aligned",
			buf:  fileRecord("hello.txt", false),
			want: attrEntry{name: []byte("hello.txt"), devID: 0x01000004, objType: vReg, modTime: 1700000000123456789, chgTime: 1700000001000000005,
				fileID: 0xfeedface12345678, linkCount: 3, allocSize: 8192, dataLength: 5000},
		},
		{
			name: "regular file, unaligned after ERROR",
			buf:  fileRecord("x", true),
			want: attrEntry{name: []byte("x"), devID: 0x01000004, objType: vReg, modTime: 1700000000123456789, chgTime: 1700000001000000005,
				fileID: 0xfeedface12345678, linkCount: 3, allocSize: 8192, dataLength: 5000},
		},
		{
			name: "765-byte name",
			buf:  fileRecord(long, false),
			want: attrEntry{name: []byte(long), devID: 0x01000004, objType: vReg, modTime: 1700000000123456789, chgTime: 1700000001000000005,
				fileID: 0xfeedface12345678, linkCount: 3, allocSize: 8192, dataLength: 5000},
		},
		{
			name: "directory: no file attributes",
			buf: newAttrRecord(attrSet{common: bulkCommon &^ attrCmnError}).name().u32(7).u32(vDir).
				ts(1, 2).ts(3, 4).u64(99).finish("sub"),
			want: attrEntry{name: []byte("sub"), devID: 7, objType: vDir, modTime: 1e9 + 2, chgTime: 3e9 + 4, fileID: 99},
		},
		{
			name: "error record: returned attributes, error and name only",
			buf:  newAttrRecord(attrSet{common: attrCmnReturnedAttrs | attrCmnError | attrCmnName}).u32(13).name().finish("locked"),
			want: attrEntry{name: []byte("locked"), errno: 13},
		},
		{
			name: "absent attributes: no type, no file id",
			buf:  newAttrRecord(attrSet{common: attrCmnReturnedAttrs | attrCmnName | attrCmnModTime}).name().ts(5, 6).finish("f"),
			want: attrEntry{name: []byte("f"), modTime: 5e9 + 6},
		},
		{name: "empty", buf: nil, err: ErrMalformed},
		{name: "length past the buffer", buf: fileRecord("a", false)[:40], err: ErrMalformed},
		{name: "length below the minimum", buf: setU32(fileRecord("a", false), 0, 8), err: ErrMalformed},
		{name: "no returned attributes", buf: setU32(fileRecord("a", false), 4, attrCmnName), err: ErrMalformed},
		{name: "no name", buf: setU32(fileRecord("a", false), 4, bulkCommon&^(attrCmnError|attrCmnName)), err: ErrMalformed},
		{name: "volume attributes", buf: setU32(fileRecord("a", false), 8, 1), err: ErrMalformed},
		{name: "fork attributes", buf: setU32(fileRecord("a", false), 20, 1), err: ErrMalformed},
		{name: "file attribute of no size", buf: setU32(fileRecord("a", false), 16, bulkFile|0x10000), err: ErrMalformed},
		{name: "dir and file attributes at once", buf: setU32(fileRecord("a", false), 12, 1), err: ErrMalformed},
		{name: "name offset outside the record", buf: setU32(fileRecord("a", false), 24, 4000), err: ErrMalformed},
		{name: "name offset negative", buf: setU32(fileRecord("a", false), 24, 0xffffff00), err: ErrMalformed},
		{name: "name length zero", buf: setU32(fileRecord("a", false), 28, 0), err: ErrMalformed},
		{name: "name length past the record", buf: setU32(fileRecord("a", false), 28, 200), err: ErrMalformed},
		{name: "name without its NUL", buf: setU32(fileRecord("abc", false), 28, 3), err: ErrMalformed},
		{name: "NUL inside the name", buf: fileRecord("a\x00b", false), err: ErrMalformed},
		{name: "fields past the record", buf: setU32(fileRecord("a", false), 16, bulkFile|attrFileRsrcExtents), err: ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e attrEntry
			n, err := parseAttrRecord(tt.buf, &e)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if n != len(tt.buf) {
				t.Errorf("length %d, record is %d", n, len(tt.buf))
			}
			e.returned = attrSet{}
			if !bytes.Equal(e.name, tt.want.name) {
				t.Errorf("name %q, want %q", e.name, tt.want.name)
			}
			e.name, tt.want.name = nil, nil
			if fmt.Sprintf("%+v", e) != fmt.Sprintf("%+v", tt.want) {
				t.Errorf("got %+v\nwant %+v", e, tt.want)
			}
		})
	}
}

func setU32(b []byte, off int, v uint32) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[off:], v)
	return b
}

func TestVtypeMode(t *testing.T) {
	for vt, want := range map[uint32]fs.FileMode{
		vReg: 0, vDir: fs.ModeDir, vLnk: fs.ModeSymlink, vBlk: fs.ModeDevice,
		vChr: fs.ModeDevice | fs.ModeCharDevice, vSock: fs.ModeSocket, vFifo: fs.ModeNamedPipe,
		vNon: fs.ModeIrregular, 8: fs.ModeIrregular, 1 << 30: fs.ModeIrregular,
	} {
		if got := vtypeMode(vt); got != want {
			t.Errorf("vtype %d: %v, want %v", vt, got, want)
		}
	}
	for alloc, want := range map[uint64]int64{0: 0, 1: 1, 512: 1, 513: 2, 4096: 8} {
		if got := allocBlocks(alloc); got != want {
			t.Errorf("allocBlocks(%d) = %d, want %d", alloc, got, want)
		}
	}
}

// FuzzParseAttrRecord checks that no buffer makes the parser panic, and
// that a record it accepts lies inside the buffer with its name.
func FuzzParseAttrRecord(f *testing.F) {
	f.Add(fileRecord("hello", false))
	f.Add(fileRecord("x", true))
	f.Add(fileRecord(strings.Repeat("€", 255), false))
	f.Add(newAttrRecord(attrSet{common: attrCmnReturnedAttrs | attrCmnError | attrCmnName}).u32(13).name().finish("e"))
	f.Add(setU32(fileRecord("a", false), 24, 0xfffffff0))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, buf []byte) {
		var e attrEntry
		n, err := parseAttrRecord(buf, &e)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v is not ErrMalformed", err)
			}
			return
		}
		if n < attrRecordMinLen || n > len(buf) {
			t.Fatalf("record length %d in a buffer of %d", n, len(buf))
		}
		if len(e.name) == 0 || bytes.IndexByte(e.name, 0) >= 0 {
			t.Fatalf("name %q", e.name)
		}
	})
}

// direntryRecord appends one struct direntry, padded to 8 bytes.
func direntryRecord(b []byte, ino uint64, typ uint8, name string) []byte {
	reclen := (direntry64NameOff + len(name) + 1 + 7) &^ 7
	rec := make([]byte, reclen)
	binary.LittleEndian.PutUint64(rec, ino)
	binary.LittleEndian.PutUint64(rec[8:], uint64(len(b)+reclen))
	binary.LittleEndian.PutUint16(rec[16:], uint16(reclen))
	binary.LittleEndian.PutUint16(rec[18:], uint16(len(name)))
	rec[20] = typ
	copy(rec[direntry64NameOff:], name)
	return append(b, rec...)
}

func TestParseDirentry64(t *testing.T) {
	long := strings.Repeat("€", 255)
	b := direntryRecord(nil, 2, dtDir, ".")
	b = direntryRecord(b, 1, dtDir, "..")
	b = direntryRecord(b, 10, dtReg, "file")
	b = direntryRecord(b, 0, dtReg, "whiteout")
	b = direntryRecord(b, 11, dtUnknown, long)
	b = direntryRecord(b, 12, dtLnk, "line\nbreak")
	recs, total, err := parseDirentry64(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, string(b[r.nameOff:r.nameOff+uint32(r.nameLen)]))
	}
	if strings.Join(names, "|") != "file|"+long+"|line\nbreak" || recs[0].typ != dtReg || recs[1].typ != dtUnknown || recs[2].typ != dtLnk {
		t.Errorf("got %q %+v", names, recs)
	}
	if total != 4+len(long)+10 {
		t.Errorf("namesLen %d", total)
	}
	one := direntryRecord(nil, 5, dtReg, "abc")
	for name, bad := range map[string][]byte{
		"truncated":          one[:20],
		"reclen past end":    setU16(one, 16, 64),
		"reclen below name":  setU16(one, 16, 22),
		"namlen zero":        setU16(one, 18, 0),
		"namlen past reclen": setU16(one, 18, 40),
		"NUL inside name":    setU16(direntryRecord(nil, 5, dtReg, "a\x00c"), 18, 3),
		"no NUL after name":  setU16(one, 18, 2),
	} {
		if _, _, err := parseDirentry64(nil, bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		}
	}
}

func setU16(b []byte, off int, v uint16) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint16(b[off:], v)
	return b
}

func TestDirentriesEOF(t *testing.T) {
	buf := make([]byte, 4096)
	binary.LittleEndian.PutUint32(buf[4092:], getdirentriesEOF)
	for _, c := range []struct {
		buf  []byte
		n    int
		want bool
	}{
		{buf, 100, true},
		{buf, 4092, true},
		{buf, 4093, false}, // the records reached the flag word
		{buf, -1, false},
		{buf[:1020], 10, false}, // a small buffer has no flag word
		{make([]byte, 4096), 100, false},
	} {
		if got := direntriesEOF(c.buf, c.n); got != c.want {
			t.Errorf("len %d n %d: %v, want %v", len(c.buf), c.n, got, c.want)
		}
	}
}

func FuzzParseDirentry64(f *testing.F) {
	b := direntryRecord(nil, 2, dtDir, ".")
	b = direntryRecord(b, 10, dtReg, "file")
	b = direntryRecord(b, 11, dtUnknown, strings.Repeat("n", 255))
	f.Add(b)
	f.Add(b[:30])
	f.Add(setU16(b, 16, 0xffff))
	f.Fuzz(func(t *testing.T, buf []byte) {
		recs, total, err := parseDirentry64(nil, buf)
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v is not ErrMalformed", err)
		}
		sum := 0
		for _, r := range recs {
			end := int(r.nameOff) + int(r.nameLen)
			if r.nameLen == 0 || end >= len(buf) || buf[end] != 0 || bytes.IndexByte(buf[r.nameOff:end], 0) >= 0 {
				t.Fatalf("record %+v: bad name in a buffer of %d", r, len(buf))
			}
			sum += int(r.nameLen)
		}
		if sum != total {
			t.Fatalf("namesLen %d, names add up to %d", total, sum)
		}
		direntriesEOF(buf, len(buf)/2) // must not panic
	})
}

// volCapsAnswer is an fgetattrlist answer with the volume capabilities.
func volCapsAnswer(caps, valid uint32, withCaps bool) []byte {
	var vol uint32
	if withCaps {
		vol = attrVolInfo | attrVolCapabilities
	}
	r := newAttrRecord(attrSet{common: attrCmnReturnedAttrs, vol: vol})
	if withCaps {
		r.u32(caps).u32(0).u32(0).u32(0).u32(valid).u32(0).u32(0).u32(0)
	}
	return r.finish("")
}

func TestParseVolCaps(t *testing.T) {
	caps, valid, ok, err := parseVolCaps(volCapsAnswer(volCapFmtPersistIDs|volCapFmtDirHardLink, 0xffff, true))
	if err != nil || !ok || caps != volCapFmtPersistIDs|volCapFmtDirHardLink || valid != 0xffff {
		t.Errorf("got %#x %#x %v %v", caps, valid, ok, err)
	}
	if _, _, ok, err := parseVolCaps(volCapsAnswer(0, 0, false)); ok || err != nil {
		t.Errorf("no capabilities returned: ok %v err %v", ok, err)
	}
	for name, bad := range map[string][]byte{
		"short":           volCapsAnswer(1, 1, true)[:10],
		"length too long": setU32(volCapsAnswer(1, 1, true), 0, 1000),
		"caps cut off":    setU32(volCapsAnswer(1, 1, true), 0, 30)[:30],
	} {
		if _, _, _, err := parseVolCaps(bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// What VolumeCaps makes of the bits: set only where vouched for.
	links, ok, err := parseDirLinkCount(newAttrRecord(attrSet{common: attrCmnReturnedAttrs, dir: attrDirLinkCount}).u32(1).finish(""))
	if err != nil || !ok || links != 1 {
		t.Errorf("dir link count: %d %v %v", links, ok, err)
	}
	if _, ok, err := parseDirLinkCount(newAttrRecord(attrSet{common: attrCmnReturnedAttrs}).finish("")); ok || err != nil {
		t.Errorf("no count: %v %v", ok, err)
	}
	if _, _, err := parseDirLinkCount([]byte{1, 2}); !errors.Is(err, ErrMalformed) {
		t.Errorf("short count answer: %v", err)
	}
}

func FuzzParseVolCaps(f *testing.F) {
	f.Add(volCapsAnswer(1, 1, true))
	f.Add(volCapsAnswer(0, 0, false))
	f.Add(newAttrRecord(attrSet{common: attrCmnReturnedAttrs, dir: attrDirLinkCount}).u32(1).finish(""))
	f.Fuzz(func(t *testing.T, buf []byte) {
		if _, _, _, err := parseVolCaps(buf); err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatal(err)
		}
		if _, _, err := parseDirLinkCount(buf); err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatal(err)
		}
	})
}

// TestAttrAnswerBounds: each length check at its bound, an empty name (its
// NUL alone), and directory attributes on bits 0 and 2.
func TestAttrAnswerBounds(t *testing.T) {
	var e attrEntry
	// An empty name is read, to be skipped as xnu's "no name", not taken
	// for a malformed buffer.
	empty := fileRecord("", false)
	if n, err := parseAttrRecord(empty, &e); !errors.Is(err, errNoName) || n != len(empty) {
		t.Errorf("empty name: %d, %v; want %d, errNoName", n, err, len(empty))
	}
	dir := newAttrRecord(attrSet{common: bulkCommon &^ attrCmnError, dir: attrDirLinkCount | attrDirMountStatus}).
		name().u32(7).u32(vDir).ts(1, 2).ts(3, 4).u64(99).u32(5).u32(6).finish("sub")
	if _, err := parseAttrRecord(dir, &e); err != nil || e.linkCount != 5 || string(e.name) != "sub" {
		t.Errorf("directory with link count and mount status: %q, %d links, %v", e.name, e.linkCount, err)
	}
	for n := range 4 {
		if _, _, _, err := parseVolCaps(make([]byte, n)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%d-byte capabilities answer: %v", n, err)
		}
	}
	// A length too short for the returned set, the rest of the buffer
	// there: without capabilities, and without a count, so that only the
	// length check can refuse it.
	if _, _, _, err := parseVolCaps(setU32(volCapsAnswer(0, 0, false), 0, 8)); !errors.Is(err, ErrMalformed) {
		t.Errorf("capabilities answer of length 8: %v", err)
	}
	noCount := newAttrRecord(attrSet{common: attrCmnReturnedAttrs}).finish("")
	if _, _, err := parseDirLinkCount(setU32(noCount, 0, 8)); !errors.Is(err, ErrMalformed) {
		t.Errorf("link count answer of length 8: %v", err)
	}
	// A count said returned, the length stopping short of it.
	short := setU32(newAttrRecord(attrSet{common: attrCmnReturnedAttrs, dir: attrDirLinkCount}).u32(2).finish(""), 0, 24)
	if _, _, err := parseDirLinkCount(short); !errors.Is(err, ErrMalformed) {
		t.Errorf("link count answer of length 24: %v", err)
	}
	// A count answer of exactly its 28 bytes, unpadded.
	exact := setU32(newAttrRecord(attrSet{common: attrCmnReturnedAttrs, dir: attrDirLinkCount}).u32(2).finish(""), 0, 28)[:28]
	if links, ok, err := parseDirLinkCount(exact); err != nil || !ok || links != 2 {
		t.Errorf("28-byte link count answer: %d %v %v", links, ok, err)
	}
}

// TestDirentryBounds: struct direntry records at their length checks: the
// shortest record, unpadded, that ends the buffer; one without room for
// its NUL; a tail too short for the header; the end-of-directory flag in a
// buffer of exactly 1,024 bytes and after a read of none.
func TestDirentryBounds(t *testing.T) {
	shortest := setU16(direntryRecord(nil, 5, dtReg, "a"), 16, 23)[:23]
	for _, buf := range [][]byte{shortest, append(direntryRecord(nil, 4, dtReg, "b"), shortest...)} {
		if recs, _, err := parseDirentry64(nil, buf); err != nil || len(recs) != len(buf)/23 {
			t.Errorf("%d bytes ending in a 23-byte record: %d records, %v", len(buf), len(recs), err)
		}
	}
	for name, bad := range map[string][]byte{
		"no room for the NUL": setU16(direntryRecord(nil, 5, dtReg, "abc"), 16, 24)[:24],
		"19-byte tail":        direntryRecord(nil, 5, dtReg, "abc")[:19],
		"22-byte tail":        append(direntryRecord(nil, 4, dtReg, "b"), shortest[:22]...),
	} {
		if _, _, err := parseDirentry64(nil, bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		}
	}
	buf := make([]byte, 1024)
	binary.LittleEndian.PutUint32(buf[1020:], getdirentriesEOF)
	if !direntriesEOF(buf, 100) || !direntriesEOF(buf, 0) {
		t.Errorf("a 1,024-byte buffer's flag: after 100 bytes %v, after none %v; want both set", direntriesEOF(buf, 100), direntriesEOF(buf, 0))
	}
}
