package snapshot

import "io/fs"

// The items in a snapshot's blocks, in order: the header, then one item
// per directory in path order (each a head and its entries sorted by
// name), then the end. Numbers are varints (zigzag where signed); fields
// are deltas from the previous entry of the stream, names share a prefix
// with the previous name of their directory and paths with the previous
// directory's path, and owners and devices are tables filled as they are
// first met:
//
//	header: 'H' keys hash start clockstep len(root) root
//	dir:    'D' shared len(suffix) suffix flags [device] Δino Δmtime Δctime count entry...
//	entry:  shared len(suffix) suffix head [ext] [perm] [owner] [links] [size]
//	        [Δmtime] [Δctime] [Δino] [len(target) target] [hash] [device]
//	end:    'E' dirs entries
//
// A device or owner reference is an index into its table; the table's
// length adds one, its fields following (device: id fstype granularity
// flags; owner: uid gid).
const (
	tagHeader = 'H'
	tagDir    = 'D'
	tagEnd    = 'E'
)

// An entry's head byte: its type code and flags for what is as before.
const (
	headType      = 0x07 // the type code
	headPermSame  = 0x08 // Perm is that of the previous entry of this type
	headOwnerSame = 0x10 // UID and GID are the previous entry's
	headOneLink   = 0x20 // Links is 1 (not for directories: not recorded)
	headExt       = 0x40 // a uvarint of ext flags follows
)

const (
	extHash   = 1 << iota // a 32-byte hash follows
	extDevice             // a device reference follows: a mount point
	extUnread             // not stat'ed: no field follows
)

// A directory head's flags.
const dirDevice = 1 // a device reference follows: not the previous directory's

// A device's flags.
const (
	devDirTimes = 1 << iota
	devStableIDs
	devChangeTimes
)

const hashLen = 32 // SHA-256

// typeCodes maps a type code to its type bits, codeOf back.
var typeCodes = [8]fs.FileMode{0, fs.ModeDir, fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeSocket,
	fs.ModeDevice | fs.ModeCharDevice, fs.ModeDevice, fs.ModeIrregular}

func codeOf(t fs.FileMode) int {
	for i, m := range typeCodes {
		if t == m {
			return i
		}
	}
	return 7
}

// sharedPrefix is the length of the longest common prefix of a and b.
func sharedPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// comparePaths orders slash-separated paths element by element, which is
// the order of a depth-first walk that visits each directory's entries by
// name: "a" < "a/b" < "a.b".
func comparePaths(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		switch {
		case x == '/':
			return -1
		case y == '/':
			return 1
		case x < y:
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// joinRel joins a relative directory path and a name.
func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// validName reports whether name can be an entry's name.
func validName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' || name[i] == 0 {
			return false
		}
	}
	return true
}
