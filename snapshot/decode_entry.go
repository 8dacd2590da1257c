package snapshot

import (
	"fmt"
	"io/fs"
	"unsafe"
)

// entry decodes one entry of a directory on dev whose previous entry is
// named prevName ("" for the first). Its name is appended to names, whose
// bytes it shares: names is only ever appended to, so what a string holds
// is never written again, and a directory's names are one allocation or
// a few.
func (r *Reader) entry(d *dec, names []byte, prevName string, dev *Device) ([]byte, Entry) {
	var x Entry
	shared := d.uvarint()
	suffix := d.bytes(d.uvarint())
	if shared > uint64(len(prevName)) || shared+uint64(len(suffix)) == 0 {
		d.fail("a name shares more than the previous one has, or is empty")
		return names, x
	}
	start := len(names)
	names = append(append(names, prevName[:shared]...), suffix...)
	x.Name = unsafe.String(&names[start], len(names)-start)
	switch {
	case d.bad != "":
		return names, x
	case !validName(x.Name):
		d.fail(fmt.Sprintf("bad name %q", x.Name))
	case prevName != "" && x.Name <= prevName:
		d.fail(fmt.Sprintf("name %q out of order after %q", x.Name, prevName))
	}
	head := d.byte()
	if head&0x80 != 0 {
		d.fail("bad entry head")
	}
	code := int(head & headType)
	x.Type = typeCodes[code]
	var ext uint64
	if head&headExt != 0 {
		if ext = d.uvarint(); ext&^(extHash|extDevice|extUnread) != 0 || ext == 0 || ext&extUnread != 0 && ext != extUnread {
			d.fail("bad entry flags")
		}
	}
	if ext == extUnread {
		x.Unread = true
		r.entries++
		return names, x
	}
	r.fields(d, &x, head, code)
	if ext&extHash != 0 {
		x.Hash = string(d.bytes(hashLen))
	}
	x.Device = dev.ID
	if ext&extDevice != 0 {
		if i := r.device(d); d.bad == "" {
			x.Device = r.devs[i].ID
		}
	}
	r.prev = x
	r.entries++
	return names, x
}

// fields decodes the entry's recorded fields after its head.
func (r *Reader) fields(d *dec, x *Entry, head byte, code int) {
	k := r.h.Keys
	if k&KeyMode != 0 {
		if head&headPermSame == 0 {
			p := d.uvarint()
			if p&^uint64(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 {
				d.fail("bad permissions")
			}
			r.prevPerm[code] = uint32(p)
		}
		x.Perm = fs.FileMode(r.prevPerm[code])
	}
	if k&KeyOwner != 0 {
		if head&headOwnerSame == 0 {
			r.prevOwnr = r.owner(d)
		}
		if r.prevOwnr < 0 || r.prevOwnr >= len(r.owners) {
			d.fail("an owner used before it is defined")
			return
		}
		o := r.owners[r.prevOwnr]
		x.UID, x.GID = o[0], o[1]
	}
	isDir, isLink := code == 1, code == 2
	if k&KeyLinks != 0 && !isDir {
		x.Links = 1
		if head&headOneLink == 0 {
			x.Links = d.uvarint()
		}
	}
	if k&KeySize != 0 && !isDir && !(isLink && k&KeyTarget != 0) {
		x.Size = int64(d.uvarint())
		if x.Size < 0 {
			d.fail("bad size")
		}
	}
	if k&KeyModTime != 0 {
		x.ModTime = r.prev.ModTime + d.varint()
	}
	if k&KeyChangeTime != 0 {
		x.ChangeTime = r.prev.ChangeTime + d.varint()
	}
	if k&KeyFileID != 0 {
		x.FileID = r.prev.FileID + uint64(d.varint())
	}
	if k&KeyTarget != 0 && isLink {
		x.Target = string(d.bytes(d.uvarint()))
		if k&KeySize != 0 {
			x.Size = int64(len(x.Target))
		}
	}
}

// owner decodes an owner reference, defining the owner on first use.
func (r *Reader) owner(d *dec) int {
	i := d.uvarint()
	switch {
	case d.bad != "":
		return 0
	case i < uint64(len(r.owners)):
		return int(i)
	case i > uint64(len(r.owners)):
		d.fail("an owner used before it is defined")
		return 0
	}
	uid, gid := d.uvarint(), d.uvarint()
	if uid > 1<<32-1 || gid > 1<<32-1 {
		d.fail("bad owner")
	}
	r.owners = append(r.owners, [2]uint32{uint32(uid), uint32(gid)})
	return int(i)
}
