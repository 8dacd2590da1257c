package frd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// appendDirent64 appends one linux_dirent64 record to b, padded to 8 bytes
// as the kernel pads it.
func appendDirent64(b []byte, ino uint64, typ uint8, name string) []byte {
	reclen := (dirent64NameOff + len(name) + 1 + 7) &^ 7
	rec := make([]byte, reclen)
	binary.NativeEndian.PutUint64(rec, ino)
	binary.NativeEndian.PutUint64(rec[8:], uint64(len(b)+reclen)) // d_off: any cookie
	binary.NativeEndian.PutUint16(rec[16:], uint16(reclen))
	rec[18] = typ
	copy(rec[dirent64NameOff:], name)
	return append(b, rec...)
}

// setReclen overwrites the d_reclen of the record at off.
func setReclen(b []byte, off int, n uint16) []byte {
	b = bytes.Clone(b)
	binary.NativeEndian.PutUint16(b[off+16:], n)
	return b
}

func TestParseDirent64(t *testing.T) {
	long := strings.Repeat("x", 255)
	valid := appendDirent64(nil, 2, dtDir, ".")
	valid = appendDirent64(valid, 1, dtDir, "..")
	valid = appendDirent64(valid, 12, dtReg, "file")
	valid = appendDirent64(valid, 0, dtReg, "deleted") // d_ino 0: skipped
	valid = appendDirent64(valid, 13, dtLnk, "a\nb")
	valid = appendDirent64(valid, 14, dtUnknown, "\xff\xfe")
	valid = appendDirent64(valid, 15, dtDir, long)
	valid = appendDirent64(valid, 16, dtReg, "...")

	oneRec := appendDirent64(nil, 3, dtReg, "abc") // 24 bytes: name at 19..21, NUL at 22
	noNUL := bytes.Clone(oneRec)
	for i := dirent64NameOff; i < len(noNUL); i++ {
		noNUL[i] = 'a'
	}
	emptyName := bytes.Clone(oneRec)
	emptyName[dirent64NameOff] = 0

	tests := []struct {
		name  string
		buf   []byte
		names []string
		types []uint8
		err   error
	}{
		{name: "empty buffer", buf: nil},
		{name: "only dots", buf: appendDirent64(appendDirent64(nil, 2, dtDir, "."), 1, dtDir, "..")},
		{
			name:  "valid",
			buf:   valid,
			names: []string{"file", "a\nb", "\xff\xfe", long, "..."},
			types: []uint8{dtReg, dtLnk, dtUnknown, dtDir, dtReg},
		},
		{name: "short header", buf: oneRec[:18], err: ErrMalformed},
		{name: "truncated record", buf: oneRec[:23], err: ErrMalformed},
		{name: "reclen past end", buf: setReclen(oneRec, 0, 32), err: ErrMalformed},
		{name: "reclen zero", buf: setReclen(oneRec, 0, 0), err: ErrMalformed},
		{name: "reclen below header", buf: setReclen(oneRec, 0, 19), err: ErrMalformed},
		{name: "no NUL", buf: noNUL, err: ErrMalformed},
		{name: "empty name", buf: emptyName, err: ErrMalformed},
		{
			name:  "good then truncated",
			buf:   append(appendDirent64(nil, 5, dtReg, "ok"), oneRec[:20]...),
			names: []string{"ok"},
			types: []uint8{dtReg},
			err:   ErrMalformed,
		},
		{
			name:  "short reclen keeps NUL inside",
			buf:   setReclen(appendDirent64(nil, 5, dtReg, "ab"), 0, 22)[:22], // 19+"ab"+NUL, unpadded
			names: []string{"ab"},
			types: []uint8{dtReg},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, total, err := parseDirent64(nil, tt.buf)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			var names []string
			var types []uint8
			sum := 0
			for _, r := range recs {
				names = append(names, string(tt.buf[r.nameOff:r.nameOff+uint32(r.nameLen)]))
				types = append(types, r.typ)
				sum += int(r.nameLen)
				if tt.buf[r.nameOff+uint32(r.nameLen)] != 0 {
					t.Errorf("name %q is not followed by its NUL", names[len(names)-1])
				}
			}
			if strings.Join(names, "|") != strings.Join(tt.names, "|") || !bytes.Equal(types, tt.types) {
				t.Errorf("got %q %v, want %q %v", names, types, tt.names, tt.types)
			}
			if sum != total {
				t.Errorf("namesLen = %d, the names add up to %d", total, sum)
			}
		})
	}
}

func TestDirentType(t *testing.T) {
	for typ := 0; typ < 256; typ++ {
		mode, known := direntType(uint8(typ))
		if known != (typ != dtUnknown) {
			t.Errorf("d_type %d: known = %v", typ, known)
		}
		if known && mode != 0 && mode.Type() != mode {
			t.Errorf("d_type %d: %v has more than type bits", typ, mode)
		}
	}
	// Each known d_type and the S_IFMT value it stands for give one mode.
	for _, c := range []struct {
		dt   uint8
		ifmt uint32
	}{{dtReg, sIFREG}, {dtDir, sIFDIR}, {dtLnk, sIFLNK}, {dtFIFO, sIFIFO}, {dtSock, sIFSOCK}, {dtChr, sIFCHR}, {dtBlk, sIFBLK}} {
		if m, _ := direntType(c.dt); m != modeType(c.ifmt|0o644) {
			t.Errorf("d_type %d gives %v, S_IFMT %o gives %v", c.dt, m, c.ifmt, modeType(c.ifmt))
		}
	}
}

// FuzzParseDirent64 checks that no buffer makes the parser panic or read
// outside it, and that every record it returns is what it claims.
func FuzzParseDirent64(f *testing.F) {
	b := appendDirent64(nil, 2, dtDir, ".")
	b = appendDirent64(b, 1, dtDir, "..")
	b = appendDirent64(b, 12, dtReg, "file")
	b = appendDirent64(b, 0, dtReg, "gone")
	b = appendDirent64(b, 13, dtUnknown, strings.Repeat("n", 255))
	f.Add(b)
	f.Add(b[:len(b)-3])
	f.Add(setReclen(b, 0, 4))
	f.Add(setReclen(b, 24, 0xffff))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, buf []byte) {
		recs, total, err := parseDirent64(nil, buf)
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v is not ErrMalformed", err)
		}
		sum := 0
		for _, r := range recs {
			end := int(r.nameOff) + int(r.nameLen)
			if r.nameLen == 0 || end >= len(buf) || buf[end] != 0 {
				t.Fatalf("record %+v: name not NUL-terminated inside the buffer of %d", r, len(buf))
			}
			name := buf[r.nameOff:end]
			if bytes.IndexByte(name, 0) >= 0 || isDotOrDotDot(name) {
				t.Fatalf("record %+v: bad name %q", r, name)
			}
			sum += int(r.nameLen)
		}
		if sum != total {
			t.Fatalf("namesLen %d, names add up to %d", total, sum)
		}
		// Parsing again appends the same records: the parser keeps no state.
		again, _, _ := parseDirent64(recs[:0:0], buf)
		if len(again) != len(recs) {
			t.Fatalf("second parse gave %d records, first %d", len(again), len(recs))
		}
	})
}

// TestDirent64Shortest: the shortest record (a one-byte name and its NUL,
// 21 bytes, unpadded) alone and ending a buffer, and one byte less.
func TestDirent64Shortest(t *testing.T) {
	shortest := setReclen(appendDirent64(nil, 5, dtReg, "a"), 0, dirent64MinLen)[:dirent64MinLen]
	for _, buf := range [][]byte{shortest, append(appendDirent64(nil, 4, dtReg, "b"), shortest...)} {
		if recs, _, err := parseDirent64(nil, buf); err != nil || len(recs) != len(buf)/dirent64MinLen {
			t.Errorf("%d bytes ending in a %d-byte record: %d records, %v", len(buf), dirent64MinLen, len(recs), err)
		}
	}
	for _, bad := range [][]byte{shortest[:dirent64MinLen-1], setReclen(shortest, 0, dirent64MinLen-1)} {
		if _, _, err := parseDirent64(nil, bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%d bytes, reclen %d: err = %v, want ErrMalformed", len(bad), binary.NativeEndian.Uint16(bad[16:]), err)
		}
	}
}
