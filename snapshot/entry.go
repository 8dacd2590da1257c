package snapshot

import (
	"io/fs"
	"time"
)

// Entry is one name of a snapshot, or of the tree as a compare finds it:
// what a stat of it (never following a symbolic link) gave, in the fields
// the snapshot's Keys record; the others are zero.
//
// Entry is comparable: two entries that == have the same name, type and
// metadata.
type Entry struct {
	Name string      // the name within its directory
	Type fs.FileMode // type bits only, as fs.DirEntry.Type gives them
	Perm fs.FileMode // permission, set-id and sticky bits (KeyMode)

	// Size is a regular file's length in bytes, a symbolic link's
	// target's length, a device's number (st_rdev); 0 for a directory,
	// whose size follows from what it holds (KeySize).
	Size       int64
	ModTime    int64  // modification time, Unix nanoseconds (KeyModTime)
	ChangeTime int64  // status change time, Unix nanoseconds (KeyChangeTime)
	FileID     uint64 // inode number (KeyFileID)
	Links      uint64 // hard-link count; 0 for a directory (KeyLinks)
	UID, GID   uint32 // owner and group (KeyOwner)
	Target     string // a symbolic link's target (KeyTarget)

	// Hash is the SHA-256 of a regular file's contents, when Take was
	// asked for it (Options.Hash) and the file held still while it was
	// read; "" otherwise.
	Hash string

	// Device is the file system holding the entry (st_dev); it is recorded
	// once per file system, not per entry.
	Device uint64

	// Unread says the entry was listed but could not be stat'ed when the
	// snapshot was taken (a directory that may be read but not searched):
	// only Name and Type are known, and a compare reports it as Racy.
	Unread bool
}

// Keys is the set of fields a snapshot records beside every entry's name
// and type.
type Keys uint32

const (
	KeyMode       Keys = 1 << iota // Perm
	KeySize                        // Size
	KeyModTime                     // ModTime
	KeyChangeTime                  // ChangeTime
	KeyFileID                      // FileID, and so moves
	KeyLinks                       // Links
	KeyOwner                       // UID and GID
	KeyTarget                      // Target

	// AllKeys is every field: the set under which no change is missed.
	AllKeys = KeyMode | KeySize | KeyModTime | KeyChangeTime | KeyFileID | KeyLinks | KeyOwner | KeyTarget
)

// HashMode says which regular files Take reads to hash.
type HashMode uint8

const (
	HashNone HashMode = iota // none: a racy entry is reported as possibly changed
	HashRacy                 // the racy ones (see the package doc)
	HashAll                  // every regular file
)

// Header is what a snapshot says about itself.
type Header struct {
	Version int
	// Start is when Take began, Unix nanoseconds: an entry whose times are
	// not older than Start by its file system's granularity is racy.
	Start int64
	// ClockStep is the step of the kernel clock that file times are taken
	// from (a jiffy on Linux), added to every file system's granularity.
	ClockStep time.Duration
	Keys      Keys
	Hash      HashMode
	Root      string   // the directory Take was given, for messages
	Exclude   []string // Options.Exclude's patterns
}

// Device is a file system a snapshot met, and how far its times and file
// ids are trusted.
type Device struct {
	ID     uint64 // st_dev
	FSType uint64 // statfs's f_type on Linux; 0 where unknown
	// Granularity is the step of the file system's times: 1 ns on ext4
	// with large inodes, XFS, btrfs and tmpfs, 1 s on ext4 with 128-byte
	// inodes, 2 s on FAT and exFAT and wherever unknown.
	Granularity time.Duration
	// DirTimes says a directory's modification and change times change
	// whenever a name is added to it or removed, so that a directory whose
	// times are unchanged need not be listed again.
	DirTimes bool
	// StableIDs says a file keeps its inode number when renamed and
	// numbers are not made up per lookup, so that moves can be found.
	StableIDs bool
	// ChangeTimes says every change to a file sets its change time to
	// the clock's, which nobody can set back: a rewrite whose
	// modification time was set back still shows. FAT and exFAT have
	// none; without it such a rewrite is seen only by a hash.
	ChangeTimes bool
}

// racy reports whether e's times are too close to the snapshot's start for
// an unchanged stat to prove e unchanged: a change made just after its
// stat, in the same tick of the file system's clock, leaves them as they
// were.
func racy(h *Header, d *Device, e *Entry) bool {
	limit := h.Start - int64(d.Granularity) - int64(h.ClockStep)
	return e.ModTime > limit || e.ChangeTime > limit
}
