package locale

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// The tests' own locale data, written as localedef writes it, so that
// they need no locale installed.

// catData is category c's data with every item empty but its codeset,
// and for LC_CTYPE the items quoting reads: MB_CUR_MAX, a class table
// with ASCII's printable bytes and a "print" table holding printable.
func catData(c category, codeset string, mbCurMax uint32, printable []rune) []byte {
	n := c.items // LC_CTYPE's classes (items 18 to 29) are among its 86
	items := make([][]byte, n)
	items[c.codeset] = append([]byte(codeset), 0)
	if c == ctype {
		items[ctypeMBCurMax] = binary.NativeEndian.AppendUint32(nil, mbCurMax)
		items[ctypeClassOffset] = binary.NativeEndian.AppendUint32(nil, ctypeClassOffset+1)
		items[ctypeClass] = classTable()
		items[ctypeClassOffset+1+classPrint] = printTable(printable)
	}
	head := 8 + 4*n
	b := binary.NativeEndian.AppendUint32(nil, c.magic())
	b = binary.NativeEndian.AppendUint32(b, uint32(n))
	var body []byte
	for _, it := range items {
		for (head+len(body))%4 != 0 {
			body = append(body, 0)
		}
		b = binary.NativeEndian.AppendUint32(b, uint32(head+len(body)))
		body = append(body, it...)
		body = append(body, 0) // an empty item is an empty string
	}
	return append(b, body...)
}

// classTable is _NL_CTYPE_CLASS with only the printable bit, set for
// ASCII's printable bytes.
func classTable() []byte {
	b := make([]byte, 2*384)
	for c := 0x20; c < 0x7f; c++ {
		binary.NativeEndian.PutUint16(b[2*(c+128):], isPrintBit)
	}
	return b
}

// printTable is a three-level table as ld-ctype.c lays it out, with
// shift1 16 and shift2 10: a first level of 17 planes, a second of 64
// entries a plane, a third of 32 words a block of 1024 characters.
func printTable(set []rune) []byte {
	const planes, l2n, l3n = 17, 64, 32
	words := []uint32{16, planes, 10, l2n - 1, l3n - 1}
	l1 := make([]uint32, planes)
	var l2, l3 []uint32
	l2At := map[uint32]int{}
	l3At := map[uint32]int{}
	base1 := uint32(4 * (len(words) + planes))
	for _, r := range set {
		p, blk := uint32(r)>>16, uint32(r)>>10
		if _, ok := l2At[p]; !ok {
			l2At[p] = len(l2)
			l2 = append(l2, make([]uint32, l2n)...)
		}
		if _, ok := l3At[blk]; !ok {
			l3At[blk] = len(l3)
			l3 = append(l3, make([]uint32, l3n)...)
		}
		l3[l3At[blk]+int(uint32(r)>>5&(l3n-1))] |= 1 << (uint32(r) & 31)
	}
	base3 := base1 + uint32(4*len(l2))
	for p, at := range l2At {
		l1[p] = base1 + uint32(4*at)
	}
	for blk, at := range l3At {
		l2[l2At[blk>>6]+int(blk&(l2n-1))] = base3 + uint32(4*at)
	}
	var b []byte
	for _, w := range append(append(append(words, l1...), l2...), l3...) {
		b = binary.NativeEndian.AppendUint32(b, w)
	}
	return b
}

// writeLocaleDir writes a locale directory, LC_MESSAGES a directory as
// localedef makes it; a category in skip is left out.
func writeLocaleDir(t *testing.T, dir, codeset string, printable []rune, skip ...string) {
	t.Helper()
	for _, c := range categories {
		if contains(skip, c.env) {
			continue
		}
		p := filepath.Join(dir, c.env)
		if c.env == "LC_MESSAGES" {
			p = filepath.Join(p, "SYS_LC_MESSAGES")
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, catData(c, codeset, mbCurMaxOf(codeset), printable), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mbCurMaxOf(codeset string) uint32 {
	if codeset == "UTF-8" {
		return 6
	}
	return 1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// archiveBytes is a locale archive holding each named locale's
// categories, laid out as locarchive.c lays one out: header, name hash
// table, strings, records, then the data.
func archiveBytes(locales map[string][lcLast][]byte, hashSize uint32) []byte {
	var strs, recs, data []byte
	type entry struct{ hash, name, rec uint32 }
	table := make([]entry, hashSize)
	strOff := uint32(56) + 12*hashSize
	recOff := strOff + 4096
	dataOff := recOff + recordSize*uint32(len(locales)) + 64
	for name, cats := range locales {
		h := hashName(name)
		idx, incr := h%hashSize, 1+h%(hashSize-2)
		for table[idx].name != 0 {
			idx = (idx + incr) % hashSize
		}
		table[idx] = entry{h, strOff + uint32(len(strs)), recOff + uint32(len(recs))}
		strs = append(append(strs, name...), 0)
		recs = binary.NativeEndian.AppendUint32(recs, 1)
		for _, d := range cats {
			recs = binary.NativeEndian.AppendUint32(recs, dataOff+uint32(len(data)))
			recs = binary.NativeEndian.AppendUint32(recs, uint32(len(d)))
			data = append(data, d...)
			for len(data)%4 != 0 {
				data = append(data, 0)
			}
		}
	}
	b := make([]byte, dataOff)
	for i, w := range []uint32{archiveMagic, 0, 56, uint32(len(locales)), hashSize, strOff, uint32(len(strs)), 4096,
		recOff, uint32(len(locales)), uint32(len(locales)), 0, 0, 0} {
		binary.NativeEndian.PutUint32(b[4*i:], w)
	}
	for i, e := range table {
		binary.NativeEndian.PutUint32(b[56+12*i:], e.hash)
		binary.NativeEndian.PutUint32(b[60+12*i:], e.name)
		binary.NativeEndian.PutUint32(b[64+12*i:], e.rec)
	}
	copy(b[strOff:], strs)
	copy(b[recOff:], recs)
	return append(b, data...)
}

// localeCats is every category's data for one locale in codeset.
func localeCats(codeset string, printable []rune) [lcLast][]byte {
	var cats [lcLast][]byte
	for _, c := range categories {
		cats[c.num] = catData(c, codeset, mbCurMaxOf(codeset), printable)
	}
	return cats
}
