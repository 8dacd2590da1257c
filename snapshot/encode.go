package snapshot

import (
	"encoding/binary"
	"fmt"
)

// encoder writes a snapshot's items, keeping the state its deltas and
// tables are taken from. The directories must come in path order, each
// with its entries sorted by name.
type encoder struct {
	bw   *blockWriter
	keys Keys

	prev     Entry               // the previous entry written
	prevPerm [8]uint32           // the previous entry's Perm, per type code
	prevOwn  Entry               // the previous directory's own ino and times
	prevPath string              // the previous directory's path
	prevDev  int                 // the previous directory's device index
	devs     map[uint64]int      // the device table: ids to indexes
	devInfo  func(uint64) Device // what is known of a device met by id
	owners   map[[2]uint32]int
	prevOwnr int // the previous entry's owner index
	dirs     uint64
	entries  uint64
	b        []byte // the item being built
}

func newEncoder(bw *blockWriter, h *Header, devInfo func(uint64) Device) *encoder {
	e := &encoder{bw: bw, keys: h.Keys, devs: map[uint64]int{}, devInfo: devInfo, owners: map[[2]uint32]int{}, prevDev: -1, prevOwnr: -1}
	b := append(e.b[:0], tagHeader)
	b = binary.AppendUvarint(b, uint64(h.Keys))
	b = binary.AppendUvarint(b, uint64(h.Hash))
	b = binary.AppendVarint(b, h.Start)
	b = binary.AppendUvarint(b, uint64(h.ClockStep))
	b = binary.AppendUvarint(b, uint64(len(h.Root)))
	b = append(b, h.Root...)
	b = binary.AppendUvarint(b, uint64(len(h.Exclude)))
	for _, p := range h.Exclude {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	e.b = b
	e.flushItem()
	return e
}

// flushItem hands the item built in e.b to the block writer.
func (e *encoder) flushItem() error {
	e.bw.buf = append(e.bw.buf, e.b...)
	e.b = e.b[:0]
	return e.bw.item()
}

// dir writes a directory: its path relative to the root ("" for the
// root), its own stat before it was listed, and its entries.
func (e *encoder) dir(path string, self *Entry, dev Device, entries []Entry) error {
	if e.dirs > 0 && comparePaths(e.prevPath, path) >= 0 {
		return fmt.Errorf("snapshot: directory %q written after %q", path, e.prevPath)
	}
	b := append(e.b[:0], tagDir)
	shared := sharedPrefix(e.prevPath, path)
	b = binary.AppendUvarint(b, uint64(shared))
	b = binary.AppendUvarint(b, uint64(len(path)-shared))
	b = append(b, path[shared:]...)
	di, known := e.devs[dev.ID]
	if !known {
		di = len(e.devs)
	}
	if di != e.prevDev {
		b = binary.AppendUvarint(b, dirDevice)
		b = e.appendDevice(b, dev)
	} else {
		b = binary.AppendUvarint(b, 0)
	}
	e.prevDev = di
	b = binary.AppendVarint(b, int64(self.FileID-e.prevOwn.FileID))
	b = binary.AppendVarint(b, self.ModTime-e.prevOwn.ModTime)
	b = binary.AppendVarint(b, self.ChangeTime-e.prevOwn.ChangeTime)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	e.b, e.prevOwn, e.prevPath = b, *self, path
	e.dirs++
	if err := e.flushItem(); err != nil {
		return err
	}
	prevName := ""
	for i := range entries {
		if i > 0 && entries[i].Name <= prevName {
			return fmt.Errorf("snapshot: %q not sorted after %q in %q", entries[i].Name, prevName, path)
		}
		e.entry(&entries[i], prevName, dev)
		prevName = entries[i].Name
		if err := e.flushItem(); err != nil {
			return err
		}
	}
	return nil
}

// appendDevice appends a reference to d, defining it on first use.
func (e *encoder) appendDevice(b []byte, d Device) []byte {
	if i, ok := e.devs[d.ID]; ok {
		return binary.AppendUvarint(b, uint64(i))
	}
	i := len(e.devs)
	e.devs[d.ID] = i
	b = binary.AppendUvarint(b, uint64(i))
	b = binary.AppendUvarint(b, d.ID)
	b = binary.AppendUvarint(b, d.FSType)
	b = binary.AppendUvarint(b, uint64(d.Granularity))
	var flags uint64
	if d.DirTimes {
		flags |= devDirTimes
	}
	if d.StableIDs {
		flags |= devStableIDs
	}
	if d.ChangeTimes {
		flags |= devChangeTimes
	}
	return binary.AppendUvarint(b, flags)
}

// entry appends x, whose directory is on dev, to the item being built.
func (e *encoder) entry(x *Entry, prevName string, dev Device) {
	b := e.b
	shared := sharedPrefix(prevName, x.Name)
	b = binary.AppendUvarint(b, uint64(shared))
	b = binary.AppendUvarint(b, uint64(len(x.Name)-shared))
	b = append(b, x.Name[shared:]...)
	code := codeOf(x.Type)
	if x.Unread {
		b = append(b, byte(code)|headPermSame|headOwnerSame|headOneLink|headExt)
		e.b = binary.AppendUvarint(b, extUnread)
		e.entries++
		return
	}
	head := byte(code)
	k := e.keys
	if k&KeyMode == 0 || uint32(x.Perm) == e.prevPerm[code] {
		head |= headPermSame
	}
	owner := e.ownerIndex(x)
	if owner == e.prevOwnr {
		head |= headOwnerSame
	}
	isDir := code == 1
	if k&KeyLinks == 0 || isDir || x.Links == 1 {
		head |= headOneLink
	}
	var ext uint64
	if len(x.Hash) == hashLen {
		ext |= extHash
	}
	entryDev := x.Device != dev.ID && x.Device != 0
	if entryDev {
		ext |= extDevice
	}
	if ext != 0 {
		head |= headExt
	}
	b = append(b, head)
	if ext != 0 {
		b = binary.AppendUvarint(b, ext)
	}
	if head&headPermSame == 0 {
		b = binary.AppendUvarint(b, uint64(x.Perm))
		e.prevPerm[code] = uint32(x.Perm)
	}
	if head&headOwnerSame == 0 {
		b = e.appendOwner(b, x, owner)
	}
	if head&headOneLink == 0 {
		b = binary.AppendUvarint(b, x.Links)
	}
	if k&KeySize != 0 && !isDir && !(code == 2 && k&KeyTarget != 0) {
		b = binary.AppendUvarint(b, uint64(x.Size))
	}
	if k&KeyModTime != 0 {
		b = binary.AppendVarint(b, x.ModTime-e.prev.ModTime)
	}
	if k&KeyChangeTime != 0 {
		b = binary.AppendVarint(b, x.ChangeTime-e.prev.ChangeTime)
	}
	if k&KeyFileID != 0 {
		b = binary.AppendVarint(b, int64(x.FileID-e.prev.FileID))
	}
	if k&KeyTarget != 0 && code == 2 {
		b = binary.AppendUvarint(b, uint64(len(x.Target)))
		b = append(b, x.Target...)
	}
	if ext&extHash != 0 {
		b = append(b, x.Hash...)
	}
	if entryDev {
		b = e.appendDevice(b, e.devInfo(x.Device))
	}
	e.b, e.prev, e.prevOwnr = b, *x, owner
	e.entries++
}

// ownerIndex is x's owner's index in the table, or the table's length
// for an owner not in it yet; -1 when owners are not recorded.
func (e *encoder) ownerIndex(x *Entry) int {
	if e.keys&KeyOwner == 0 {
		return -1
	}
	if i, ok := e.owners[[2]uint32{x.UID, x.GID}]; ok {
		return i
	}
	return len(e.owners)
}

func (e *encoder) appendOwner(b []byte, x *Entry, i int) []byte {
	b = binary.AppendUvarint(b, uint64(i))
	if i == len(e.owners) {
		e.owners[[2]uint32{x.UID, x.GID}] = i
		b = binary.AppendUvarint(b, uint64(x.UID))
		b = binary.AppendUvarint(b, uint64(x.GID))
	}
	return b
}

// end writes the counts and the end marker.
func (e *encoder) end() error {
	b := append(e.b[:0], tagEnd)
	b = binary.AppendUvarint(b, e.dirs)
	b = binary.AppendUvarint(b, e.entries)
	e.b = b
	e.flushItem()
	return e.bw.close()
}
