package locale

import (
	"encoding/binary"
	"errors"
	"io"
)

// errBadData is a category's data that glibc would not load.
var errBadData = errors.New("locale data glibc does not load")

// data is one category's data, as localedef writes it in the machine's
// byte order: a magic word, the count of items, each item's offset, then
// the items.
type data struct {
	b     []byte // the whole data, or its header only
	full  bool
	index []uint32
	r     io.ReaderAt // where to read an item past b
	off   int64       // the data's offset in r
	size  int64
}

// readData reads the size bytes at off in r as c's data, checked as
// _nl_intern_locale_data (locale/loadlocale.c) checks it: c's magic, at
// least c.items items, each offset inside the data. With all false only
// the header is read: enough to know that glibc would load it.
func readData(c category, r io.ReaderAt, off, size int64, all bool) (*data, error) {
	if size < 8 || size > 1<<30 {
		return nil, errBadData
	}
	var head [8]byte
	if _, err := r.ReadAt(head[:], off); err != nil {
		return nil, errBadData
	}
	n := int64(binary.NativeEndian.Uint32(head[4:]))
	if binary.NativeEndian.Uint32(head[:]) != c.magic() || n < int64(c.items) || 8+4*n >= size {
		return nil, errBadData
	}
	b := make([]byte, 8+4*n)
	if all {
		b = make([]byte, size)
	}
	if _, err := r.ReadAt(b, off); err != nil {
		return nil, errBadData
	}
	d := &data{b: b, full: all, index: make([]uint32, n), r: r, off: off, size: size}
	for i := range d.index {
		d.index[i] = binary.NativeEndian.Uint32(b[8+4*i:])
		if int64(d.index[i]) > size {
			return nil, errBadData
		}
	}
	return d, nil
}

// item is item i's bytes, to the end of the data; nil if there is no
// item i or only the header was read.
func (d *data) item(i int) []byte {
	if !d.full || i < 0 || i >= len(d.index) {
		return nil
	}
	return d.b[d.index[i]:]
}

// str is item i as a string, which ends at its NUL: read from r when only
// the header was read (a codeset's name, to check it).
func (d *data) str(i int) string {
	b := d.item(i)
	if !d.full && i >= 0 && i < len(d.index) {
		b = make([]byte, min(256, d.size-int64(d.index[i])))
		n, _ := d.r.ReadAt(b, d.off+int64(d.index[i]))
		b = b[:n]
	}
	for j, c := range b {
		if c == 0 {
			return string(b[:j])
		}
	}
	return string(b)
}

// word is item i as a 32-bit word, 0 if it has no room for one.
func (d *data) word(i int) uint32 {
	b := d.item(i)
	if len(b) < 4 {
		return 0
	}
	return binary.NativeEndian.Uint32(b)
}
