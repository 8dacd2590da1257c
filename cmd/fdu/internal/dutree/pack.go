package dutree

import "encoding/binary"

// A directory's entries are kept one after another in one byte slice,
// about 24 bytes an entry with a 15-byte name where a struct of fields
// took 64 and its name: what lets a browser hold 10^8 entries. Each is
//
//	flags     2 bytes, little-endian: rewritten in place (Recount's marks)
//	name      uvarint length, then its bytes
//
// and for anything but a directory (whose metadata is in its Dir, the
// next of the parent's subs):
//
//	asize     uvarint
//	dsize     uvarint: blocks of 512 <<1, or bytes <<1 | 1 where not whole
//	ino       zigzag varint, the difference from the previous file's
//	mtime     zigzag varint, likewise (files listed together are alike)
//	nlink     uvarint, where flagged (not 1)
//
// A change other than the flags packs the directory again (Dir.set).

// Flags kept only in the packed form, never in a Node.
const (
	entHasNlink Flags = 1 << 11 // an nlink follows
	entDir      Flags = 1 << 12 // a directory: its Dir is the next of subs
	entOnly           = entHasNlink | entDir
)

// packer packs entries, one directory at a time; its buffer is reused.
type packer struct {
	buf   []byte
	subs  []*Dir
	ino   uint64
	mtime int64
	ext   bool  // the entries' Ext are kept (extended mode)
	exts  []Ext // the files' Ext, when kept
}

func (p *packer) reset() {
	p.buf, p.subs, p.ino, p.mtime, p.exts = p.buf[:0], p.subs[:0], 0, 0, p.exts[:0]
}

// add packs k; a directory's metadata goes to its Dir.
func (p *packer) add(k *Node) {
	f := k.Flags &^ entOnly
	if k.Dir != nil {
		k.Dir.setOwn(k)
		p.buf = binary.LittleEndian.AppendUint16(p.buf, uint16(f|entDir))
		p.name(k.Name)
		p.subs = append(p.subs, k.Dir)
		return
	}
	if k.Nlink != 1 {
		f |= entHasNlink
	}
	if p.ext {
		p.exts = append(p.exts, k.Ext)
	}
	p.buf = binary.LittleEndian.AppendUint16(p.buf, uint16(f))
	p.name(k.Name)
	p.buf = binary.AppendUvarint(p.buf, uint64(k.Asize))
	if ds := uint64(k.Dsize); ds%512 == 0 {
		p.buf = binary.AppendUvarint(p.buf, ds/512<<1)
	} else {
		p.buf = binary.AppendUvarint(p.buf, ds<<1|1)
	}
	p.buf = binary.AppendVarint(p.buf, int64(k.Ino-p.ino)) // wraps, and back
	p.buf = binary.AppendVarint(p.buf, int64(uint64(k.Mtime)-uint64(p.mtime)))
	p.ino, p.mtime = k.Ino, k.Mtime
	if f&entHasNlink != 0 {
		p.buf = binary.AppendUvarint(p.buf, uint64(k.Nlink))
	}
}

func (p *packer) name(s string) {
	p.buf = binary.AppendUvarint(p.buf, uint64(len(s)))
	p.buf = append(p.buf, s...)
}

// into gives d what p packed, in memory of its exact size.
func (p *packer) into(d *Dir) {
	d.packed, d.subs = nil, nil
	if len(p.buf) > 0 {
		d.packed = append(make([]byte, 0, len(p.buf)), p.buf...)
	}
	if len(p.subs) > 0 {
		d.subs = append(make([]*Dir, 0, len(p.subs)), p.subs...)
	}
	if d.ext != nil {
		d.ext.files = nil
	}
	if p.ext && len(p.exts) > 0 {
		if d.ext == nil {
			d.ext = &extCols{}
		}
		d.ext.files = append(make([]Ext, 0, len(p.exts)), p.exts...)
	}
}

// cursor reads a directory's entries in order.
type cursor struct {
	d     *Dir
	off   int
	sub   int
	file  int // the files read so far: the next one's index in the Ext
	ino   uint64
	mtime int64
}

func (d *Dir) cursor() cursor { return cursor{d: d} }

// next reads the next entry into k, false at the end.
func (c *cursor) next(k *Node) bool {
	b := c.d.packed
	if c.off >= len(b) {
		return false
	}
	at := c.off
	f := Flags(binary.LittleEndian.Uint16(b[at:]))
	c.off += 2
	n := int(c.uvarint())
	name := b[c.off : c.off+n]
	c.off += n
	if f&entDir != 0 {
		sub := c.d.subs[c.sub]
		c.sub++
		*k = sub.node(unsafeString(name))
		k.in, k.at = c.d, at
		return true
	}
	*k = Node{Name: unsafeString(name), in: c.d, at: at, Flags: f &^ entOnly, Nlink: 1}
	k.Asize = int64(c.uvarint())
	if ds := c.uvarint(); ds&1 == 0 {
		k.Dsize = int64((ds >> 1) * 512)
	} else {
		k.Dsize = int64(ds >> 1)
	}
	c.ino += uint64(c.varint())
	c.mtime = int64(uint64(c.mtime) + uint64(c.varint()))
	k.Ino, k.Mtime = c.ino, c.mtime
	if f&entHasNlink != 0 {
		k.Nlink = uint32(c.uvarint())
	}
	k.Ext = c.d.fileExt(c.file)
	c.file++
	return true
}

func (c *cursor) uvarint() uint64 {
	b := c.d.packed
	if v := b[c.off]; v < 0x80 {
		c.off++
		return uint64(v)
	}
	v, n := binary.Uvarint(b[c.off:])
	c.off += n
	return v
}

func (c *cursor) varint() int64 {
	u := c.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// SetFlags sets n's flags to f, in its directory's entries too (n read
// from one), or in its Dir for a directory.
func (n *Node) SetFlags(f Flags) {
	f &^= entOnly
	n.Flags = f
	if n.Dir != nil {
		n.Dir.own.flags = f
		return
	}
	if n.in != nil {
		b := n.in.packed[n.at:]
		binary.LittleEndian.PutUint16(b, uint16(f|Flags(binary.LittleEndian.Uint16(b))&entOnly))
	}
}

// NewDir is a directory on the device dev holding kids (a directory
// among them with its own Dir), for a tree made other than by a scan.
func NewDir(dev uint64, kids ...Node) *Dir {
	d := &Dir{Dev: dev}
	d.set(kids)
	return d
}

// Entries is d's entries, read into a new slice.
func (d *Dir) Entries() []Node {
	var out []Node
	c := d.cursor()
	var k Node
	for c.next(&k) {
		out = append(out, k)
	}
	return out
}

// Len is the number of d's entries.
func (d *Dir) Len() int {
	n := 0
	c := d.cursor()
	var k Node
	for c.next(&k) {
		n++
	}
	return n
}

// Empty reports whether d holds no entry.
func (d *Dir) Empty() bool { return len(d.packed) == 0 }

// set packs kids as d's entries.
func (d *Dir) set(kids []Node) {
	var p packer
	p.ext = d.ext != nil
	for i := range kids {
		p.ext = p.ext || kids[i].Ext != (Ext{})
	}
	for i := range kids {
		p.add(&kids[i])
	}
	p.into(d)
}
