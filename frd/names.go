//go:build linux || darwin || windows

package frd

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
