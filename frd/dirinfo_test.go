package frd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// dirInfoRecord is one FULL or ID_EXTD record, 8-aligned, with its
// NextEntryOffset left 0 (chain sets it).
type dirInfoRecord struct {
	name                       string // encoded as UTF-16
	units                      []uint16
	attrs, tag                 uint32
	size, alloc, write, change int64
	idLo, idHi                 uint64
}

func (r dirInfoRecord) bytes(extd bool) []byte {
	units := r.units
	if units == nil {
		units = utf16.Encode([]rune(r.name))
	}
	nameOff := fullDirInfoNameOff
	if extd {
		nameOff = idExtdDirInfoNameOff
	}
	b := make([]byte, (nameOff+2*len(units)+7)&^7)
	binary.LittleEndian.PutUint64(b[24:], uint64(r.write))
	binary.LittleEndian.PutUint64(b[32:], uint64(r.change))
	binary.LittleEndian.PutUint64(b[40:], uint64(r.size))
	binary.LittleEndian.PutUint64(b[48:], uint64(r.alloc))
	binary.LittleEndian.PutUint32(b[56:], r.attrs)
	binary.LittleEndian.PutUint32(b[60:], uint32(2*len(units)))
	if extd {
		binary.LittleEndian.PutUint32(b[68:], r.tag)
		binary.LittleEndian.PutUint64(b[72:], r.idLo)
		binary.LittleEndian.PutUint64(b[80:], r.idHi)
	} else if r.attrs&fileAttributeReparsePoint != 0 {
		binary.LittleEndian.PutUint32(b[64:], r.tag) // EaSize
	}
	for i, u := range units {
		binary.LittleEndian.PutUint16(b[nameOff+2*i:], u)
	}
	return b
}

// chain lays records out one after another, each pointing at the next.
func chain(extd bool, recs ...dirInfoRecord) []byte {
	var buf []byte
	for i, r := range recs {
		b := r.bytes(extd)
		if i < len(recs)-1 {
			binary.LittleEndian.PutUint32(b, uint32(len(b)))
		}
		buf = append(buf, b...)
	}
	return buf
}

func TestParseDirInfo(t *testing.T) {
	const t0 = filetimeUnixEpoch + 17e15 // 2023-11-14
	recs := []dirInfoRecord{
		{name: ".", attrs: fileAttributeDirectory},
		{name: "..", attrs: fileAttributeDirectory},
		{name: "file.txt", size: 1234, alloc: 4096, write: t0, change: t0 + 10, idLo: 42},
		{name: "dir", attrs: fileAttributeDirectory, idLo: 7},
		{name: "link", attrs: fileAttributeReparsePoint | fileAttributeDirectory, tag: ioReparseTagSymlink, idLo: 8},
		{name: "refs", size: 1, idLo: 9, idHi: 1},
		{name: "日本語", size: 2},
	}
	for _, extd := range []bool{false, true} {
		got, err := parseDirInfo(nil, chain(extd, recs...), extd)
		if err != nil {
			t.Fatalf("extd %v: %v", extd, err)
		}
		if len(got) != 5 {
			t.Fatalf("extd %v: %d records, want 5", extd, len(got))
		}
		var names []string
		for _, r := range got {
			names = append(names, string(appendWTF8(nil, r.name)))
		}
		if names[0] != "file.txt" || names[1] != "dir" || names[2] != "link" || names[4] != "日本語" {
			t.Errorf("extd %v: names %q", extd, names)
		}
		f := got[0]
		if f.endOfFile != 1234 || f.allocSize != 4096 || filetimeNanos(f.lastWrite) != 17e17 || filetimeNanos(f.change) != 17e17+1000 {
			t.Errorf("extd %v: file %+v", extd, f)
		}
		if dirInfoType(got[2].attrs, got[2].reparseTag) != fs.ModeSymlink {
			t.Errorf("extd %v: link type %v (tag %#x)", extd, dirInfoType(got[2].attrs, got[2].reparseTag), got[2].reparseTag)
		}
		if extd && (fileID64(got[0].fileID) != 42 || fileID64(got[3].fileID) != 0) {
			t.Errorf("file ids %d %d, want 42 and 0 (128-bit)", fileID64(got[0].fileID), fileID64(got[3].fileID))
		}
	}
	one := dirInfoRecord{name: "abc"}.bytes(true)
	for name, bad := range map[string][]byte{
		"short header":     one[:80],
		"odd name length":  setU32(one, 60, 5),
		"empty name":       setU32(one, 60, 0),
		"name past buffer": setU32(one, 60, 200),
		"next inside name": setU32(one, 0, 40),
		"next past buffer": setU32(one, 0, 4096),
	} {
		if _, err := parseDirInfo(nil, bad, true); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		}
	}
}

func TestDirInfoType(t *testing.T) {
	for _, c := range []struct {
		attrs, tag uint32
		want       fs.FileMode
	}{
		{0, 0, 0},
		{fileAttributeDirectory, 0, fs.ModeDir},
		{fileAttributeReparsePoint, ioReparseTagSymlink, fs.ModeSymlink},
		{fileAttributeReparsePoint | fileAttributeDirectory, ioReparseTagSymlink, fs.ModeSymlink},
		{fileAttributeReparsePoint | fileAttributeDirectory, ioReparseTagMountPoint, fs.ModeIrregular}, // a junction
		{fileAttributeReparsePoint, ioReparseTagAFUnix, fs.ModeSocket},
		{fileAttributeReparsePoint, ioReparseTagDedup, 0},
		{fileAttributeReparsePoint | fileAttributeDirectory, 0x9000001A, fs.ModeDir | fs.ModeIrregular}, // a non-surrogate tag on a directory
		{fileAttributeDirectory, ioReparseTagSymlink, fs.ModeDir},                                       // a tag without the reparse attribute counts for nothing
	} {
		if got := dirInfoType(c.attrs, c.tag); got != c.want {
			t.Errorf("attrs %#x tag %#x: %v, want %v", c.attrs, c.tag, got, c.want)
		}
	}
}

// refWTF8 is an independent reference for appendWTF8, on uint16 units.
func refWTF8(units []uint16) []byte {
	var out []byte
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if utf16.IsSurrogate(u) {
			if i+1 < len(units) {
				if r := utf16.DecodeRune(u, rune(units[i+1])); r != utf8.RuneError {
					out = utf8.AppendRune(out, r)
					i++
					continue
				}
			}
			out = append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
			continue
		}
		out = utf8.AppendRune(out, u)
	}
	return out
}

func unitsBytes(units []uint16) []byte {
	b := make([]byte, 2*len(units))
	for i, u := range units {
		binary.LittleEndian.PutUint16(b[2*i:], u)
	}
	return b
}

func checkWTF8(t *testing.T, units []uint16) {
	t.Helper()
	b := unitsBytes(units)
	got, want := appendWTF8(nil, b), refWTF8(units)
	if !bytes.Equal(got, want) {
		t.Fatalf("units %#x: %q, want %q", units, got, want)
	}
	if n := wtf8Len(b); n != len(got) {
		t.Fatalf("units %#x: wtf8Len %d, decoded %d", units, n, len(got))
	}
}

// TestWTF8Exhaustive decodes every BMP code unit alone and between ASCII,
// every high surrogate with low ones of every shape, and random names of
// every length from 0 to 64.
func TestWTF8Exhaustive(t *testing.T) {
	ascii := utf16.Encode([]rune("sixteen-ascii-ok"))
	for u := 0; u <= 0xFFFF; u++ {
		checkWTF8(t, []uint16{uint16(u)})
		checkWTF8(t, []uint16{'a', uint16(u), 'b'})
		// After and before whole blocks, so the SIMD converters run first.
		checkWTF8(t, append(append(append([]uint16{}, ascii...), uint16(u)), ascii...))
	}
	for hi := uint16(0xD800); hi < 0xDC00; hi++ {
		for _, lo := range []uint16{0xDC00, 0xDC01, 0xDE00, 0xDFFF} {
			checkWTF8(t, []uint16{hi, lo})         // a pair
			checkWTF8(t, []uint16{lo, hi})         // reversed: two unpaired
			checkWTF8(t, []uint16{hi, hi, lo})     // an unpaired high, then a pair
			checkWTF8(t, []uint16{'x', hi})        // a high at the end
			checkWTF8(t, []uint16{hi, 'x', lo})    // split by ASCII
			checkWTF8(t, []uint16{hi, 0xE000, lo}) // split by a non-surrogate
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() uint16 {
		switch r.IntN(5) {
		case 0:
			return uint16(r.IntN(0x80))
		case 1:
			return uint16(0xD800 + r.IntN(0x400))
		case 2:
			return uint16(0xDC00 + r.IntN(0x400))
		default:
			return uint16(r.IntN(0x10000))
		}
	}
	for n := 0; n <= 64; n++ {
		for range 200 {
			units := make([]uint16, n)
			for i := range units {
				units[i] = pick()
			}
			checkWTF8(t, units)
		}
	}
}

func FuzzParseDirInfo(f *testing.F) {
	f.Add(chain(false, dirInfoRecord{name: "a"}, dirInfoRecord{name: "bb", attrs: fileAttributeDirectory}), false)
	f.Add(chain(true, dirInfoRecord{name: "a", idLo: 1}, dirInfoRecord{name: "ü"}), true)
	f.Add(setU32(dirInfoRecord{name: "abc"}.bytes(true), 0, 8), true)
	f.Fuzz(func(t *testing.T, buf []byte, extd bool) {
		recs, err := parseDirInfo(nil, buf, extd)
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v is not ErrMalformed", err)
		}
		for _, r := range recs {
			if len(r.name) == 0 || len(r.name)%2 != 0 {
				t.Fatalf("name of %d bytes", len(r.name))
			}
			if got := appendWTF8(nil, r.name); len(got) != wtf8Len(r.name) {
				t.Fatalf("wtf8Len disagrees")
			}
		}
	})
}

func FuzzAppendWTF8(f *testing.F) {
	f.Add([]byte{0x3D, 0xD8, 0x00, 0xDE, 'a', 0})
	f.Add([]byte{0x00, 0xDC, 0x00, 0xD8})
	f.Fuzz(func(t *testing.T, b []byte) {
		b = b[:len(b)&^1]
		units := make([]uint16, len(b)/2)
		for i := range units {
			units[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		checkWTF8(t, units)
	})
}

// TestFiletimeNanos: FILETIME reaches the year 30828 and back to 1601,
// both outside int64 nanoseconds.
func TestFiletimeNanos(t *testing.T) {
	for _, tc := range []struct{ ft, want int64 }{
		{filetimeUnixEpoch, 0},
		{filetimeUnixEpoch + 1, 100},
		{filetimeUnixEpoch - 1, -100},
		{0, math.MinInt64},                                         // 1601
		{math.MaxInt64, math.MaxInt64},                             // 30828
		{filetimeUnixEpoch + 92233720368547758, math.MaxInt64 - 7}, // the last that fits
	} {
		if got := filetimeNanos(tc.ft); got != tc.want {
			t.Errorf("filetimeNanos(%d) = %d, want %d", tc.ft, got, tc.want)
		}
	}
}

// TestDirInfoBounds: a last record whose name ends the buffer, unpadded,
// and one whose next offset is the buffer's end, in both classes.
func TestDirInfoBounds(t *testing.T) {
	for _, extd := range []bool{false, true} {
		nameOff := fullDirInfoNameOff
		if extd {
			nameOff = idExtdDirInfoNameOff
		}
		exact := dirInfoRecord{name: "ab"}.bytes(extd)[:nameOff+4]
		if recs, err := parseDirInfo(nil, exact, extd); err != nil || len(recs) != 1 {
			t.Errorf("extd %v: a name ending the buffer: %d records, %v", extd, len(recs), err)
		}
		buf := chain(extd, dirInfoRecord{name: "a"}, dirInfoRecord{name: "b"})
		last := len(dirInfoRecord{name: "a"}.bytes(extd))
		binary.LittleEndian.PutUint32(buf[last:], uint32(len(buf)-last))
		if recs, err := parseDirInfo(nil, buf, extd); err != nil || len(recs) != 2 {
			t.Errorf("extd %v: a next offset at the buffer's end: %d records, %v", extd, len(recs), err)
		}
	}
}
