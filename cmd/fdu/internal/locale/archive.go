package locale

import (
	"encoding/binary"
	"io"
	"os"
)

// archiveMagic begins a locale archive (AR_MAGIC in locale/locarchive.h).
const archiveMagic = 0xde020109

// span is where one category's data lies in the archive.
type span struct{ off, size int64 }

// archive is an open locale archive: its header's tables, read whole.
type archive struct {
	f    io.ReaderAt
	size int64
	head []byte // from the file's start to the end of its last table
	// The tables' places, as struct locarhead gives them.
	hashOff, hashSize, strOff, strUsed, recOff, recUsed uint32
}

// openArchive opens path and reads its header as
// _nl_load_locale_from_archive (locale/loadarchive.c) does: nil if
// there is no archive or it is not one.
func openArchive(path string) (*archive, io.Closer) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	st, err := f.Stat()
	if err == nil {
		if a := readArchive(f, st.Size()); a != nil {
			return a, f
		}
	}
	f.Close()
	return nil, nil
}

// readArchive reads the header of the archive of size bytes in f.
func readArchive(f io.ReaderAt, size int64) *archive {
	a := &archive{f: f, size: size}
	if !a.readHead() {
		return nil
	}
	return a
}

func (a *archive) readHead() bool {
	var h [56]byte
	if _, err := a.f.ReadAt(h[:], 0); err != nil || binary.NativeEndian.Uint32(h[:]) != archiveMagic {
		return false
	}
	w := func(i int) uint32 { return binary.NativeEndian.Uint32(h[4*i:]) }
	a.hashOff, a.hashSize = w(2), w(4)
	a.strOff, a.strUsed = w(5), w(6)
	a.recOff, a.recUsed = w(8), w(9)
	end := max(int64(a.hashOff)+12*int64(a.hashSize), int64(a.strOff)+int64(a.strUsed),
		int64(a.recOff)+recordSize*int64(a.recUsed))
	if end > a.size || end > 64<<20 || a.hashSize <= 2 {
		return false
	}
	a.head = make([]byte, end)
	_, err := a.f.ReadAt(a.head, 0)
	return err == nil
}

// recordSize is a struct locrecent's: a count and lcLast (offset, length)
// pairs.
const recordSize = 4 + 8*lcLast

// word is the 32-bit word at off in the header's tables; 0 past them.
func (a *archive) word(off int64) uint32 {
	if off < 0 || off+4 > int64(len(a.head)) {
		return 0
	}
	return binary.NativeEndian.Uint32(a.head[off:])
}

// find is the archive's record of the locale name (as the archive spells
// it: archiveName): each category's place, or false. Its open-addressed
// hash table is probed as glibc probes it.
func (a *archive) find(name string) ([lcLast]span, bool) {
	var spans [lcLast]span
	h := hashName(name)
	idx, incr := h%a.hashSize, 1+h%(a.hashSize-2)
	for range a.hashSize {
		ent := int64(a.hashOff) + 12*int64(idx)
		nameOff := a.word(ent + 4)
		if nameOff == 0 {
			return spans, false
		}
		if a.word(ent) == h && a.nameAt(nameOff) == name {
			return a.record(a.word(ent + 8))
		}
		idx += incr
		if idx >= a.hashSize {
			idx -= a.hashSize
		}
	}
	return spans, false
}

// nameAt is the NUL-terminated string at off.
func (a *archive) nameAt(off uint32) string {
	if int64(off) >= int64(len(a.head)) {
		return ""
	}
	b := a.head[off:]
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return ""
}

// record reads the locale record at off: false for a removed entry
// (offset 0) or one pointing past the file.
func (a *archive) record(off uint32) ([lcLast]span, bool) {
	var spans [lcLast]span
	if off == 0 || int64(off)+recordSize > int64(len(a.head)) {
		return spans, false
	}
	for i := range spans {
		s := span{int64(a.word(int64(off) + 4 + 8*int64(i))), int64(a.word(int64(off) + 8 + 8*int64(i)))}
		if i != 6 && s.off+s.size > a.size {
			return spans, false
		}
		spans[i] = s
	}
	return spans, true
}

// hashName is the archive's hash of a name (compute_hashval in
// locale/hashval.h, with 32-bit values as loadarchive.c uses it).
func hashName(name string) uint32 {
	h := uint32(len(name))
	for i := 0; i < len(name); i++ {
		h = h<<9 | h>>23
		h += uint32(name[i])
	}
	if h == 0 {
		return ^uint32(0)
	}
	return h
}
