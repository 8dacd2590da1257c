//go:build linux || darwin || windows

package frd

import "encoding/binary"

// What the backends that read into a buffer of their own share.

// bufSize is the size of the buffer the kernel fills.
const bufSize = 64 << 10

// nameSpace returns room for n bytes of names, empty, with capacity n: a
// new allocation, or under ReuseNames the next part of the Lister's own
// storage (a call starts it again with resetNames). A part handed out is
// never overwritten within one call: when the storage is full a new array
// is taken, and the old one lives on as long as a name points into it.
func (l *Lister) nameSpace(n int) []byte {
	if !l.ReuseNames {
		return make([]byte, 0, n)
	}
	if cap(l.names)-len(l.names) < n {
		l.names = make([]byte, 0, max(n, 2*cap(l.names), 4096))
	}
	i := len(l.names)
	l.names = l.names[:i+n]
	return l.names[i : i : i+n]
}

// resetNames starts a call: under ReuseNames the names of the last call
// are overwritten from here on.
func (l *Lister) resetNames() { l.names = l.names[:0] }

// wordSlack is the room past the end of a buffer that copyName may write
// or read.
const wordSlack = 15

// copyName copies the first n bytes of src to dst a word at a time, the
// first two always, so it may read and write up to wordSlack bytes past
// them; both must have room for them, and for 16 bytes at least. It calls
// nothing: names are short, and a call to memmove, with what the caller
// must save around it, costs more than the copy.
func copyName(dst, src []byte, n int) {
	d, s := dst[:16], src[:16]
	binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(s))
	binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:]))
	for i := 16; i < n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:i+8], binary.LittleEndian.Uint64(src[i:i+8]))
	}
}
