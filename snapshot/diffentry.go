package snapshot

import (
	"errors"
	"io/fs"
)

// ErrNotRead is a Racy change's Err for a directory whose contents the
// snapshot (or the later one) could not read.
var ErrNotRead = errors.New("snapshot: not read when the snapshot was taken")

// rules is what a compare compares.
type rules struct {
	head       *Header // the older snapshot's
	keys       Keys    // recorded on both sides
	ignoreCtim bool
	ignoreIno  bool
	hash       bool // read files (or take the later snapshot's hashes) where stats cannot tell
}

// differ returns the fields of a and b (of one type) that differ by the
// keys recorded, leaving out those that follow from a directory's
// contents, and inode numbers unless ids says the file system keeps them
// (FUSE hands out new ones when the kernel forgets an inode).
func (r *rules) differ(a, b *Entry, ids bool) Fields {
	k := r.keys
	var f Fields
	dir := a.Type.IsDir()
	set := func(key Keys, field Fields, differs bool) {
		if k&key != 0 && differs {
			f |= field
		}
	}
	set(KeyMode, FieldPerm, a.Perm != b.Perm)
	set(KeyOwner, FieldOwner, a.UID != b.UID || a.GID != b.GID)
	set(KeyFileID, FieldFileID, ids && !r.ignoreIno && a.FileID != b.FileID)
	if !dir {
		set(KeySize, FieldSize, a.Size != b.Size)
		set(KeyModTime, FieldModTime, a.ModTime != b.ModTime)
		set(KeyChangeTime, FieldChangeTime, !r.ignoreCtim && a.ChangeTime != b.ChangeTime)
		set(KeyLinks, FieldLinks, a.Links != b.Links)
		set(KeyTarget, FieldTarget, a.Target != b.Target)
	}
	return f
}

// classify compares old and cur, one name on both sides: the kind of
// change (0 for none) and the fields. curHash gives cur's hash when stats
// cannot tell: read from the file, or the later snapshot's.
// devs is the older snapshot's device table as of the directory.
func (r *rules) classify(old, cur *Entry, devs []Device, curHash func() string) (Kind, Fields) {
	if old.Type != cur.Type {
		return TypeChanged, FieldType
	}
	dev := findDevice(devs, old.Device)
	f := r.differ(old, cur, dev.StableIDs)
	switch {
	case f&content != 0:
		return Modified, f
	case f != 0:
		// A rewrite whose modification time was set back shows as a change
		// time alone: a hash tells.
		if f&FieldChangeTime != 0 {
			if same, known := r.sameHash(old, curHash); known && !same {
				return Modified, f | FieldHash
			}
		}
		return MetaChanged, f
	}
	hides := r.mayHide(old, dev)
	if !hides && (dev.ChangeTimes || !old.Type.IsRegular()) {
		return 0, 0
	}
	// Racy, or on a file system without change times: a hash tells.
	switch same, known := r.sameHash(old, curHash); {
	case !known && hides:
		return Racy, 0
	case !known || same:
		return 0, 0
	}
	return Modified, FieldHash
}

// sameHash compares the current contents' hash with the one recorded;
// known is false when either is missing (not asked for, or the file
// changed while it was read).
func (r *rules) sameHash(old *Entry, curHash func() string) (same, known bool) {
	if !r.hash || old.Hash == "" || curHash == nil {
		return false, false
	}
	h := curHash()
	if h == "" {
		return false, false
	}
	return h == old.Hash, true
}

// mayHide reports whether an unchanged stat of old can hide a change: a
// file whose contents can change in place, with times too close to the
// snapshot's start.
func (r *rules) mayHide(old *Entry, dev *Device) bool {
	if !old.Type.IsRegular() && !(old.Type == fs.ModeSymlink && r.keys&KeyTarget == 0) {
		return false
	}
	return racy(r.head, dev, old)
}

// findDevice finds the device id in a snapshot's table; one it never met
// is unknown.
func findDevice(devs []Device, id uint64) *Device {
	for i := range devs {
		if devs[i].ID == id {
			return &devs[i]
		}
	}
	d := unknownDevice(id)
	return &d
}

// movable reports whether x, in a snapshot with the device table devs,
// may be half of a move: its inode number is recorded, compared, and kept
// across renames by its file system.
func (r *rules) movable(x *Entry, devs []Device) bool {
	return x.FileID != 0 && !r.ignoreIno && r.keys&KeyFileID != 0 && findDevice(devs, x.Device).StableIDs
}
