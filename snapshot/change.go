package snapshot

// Kind is what happened to a path, as a letter.
type Kind byte

const (
	Added       Kind = 'A' // not in the snapshot
	Removed     Kind = 'D' // in the snapshot only
	Modified    Kind = 'M' // contents changed: size, modification time, link target, hash, or another file (inode, where inodes last) under the name
	MetaChanged Kind = 'm' // only permissions, owner, link count or change time
	TypeChanged Kind = 'T' // another type under the same name
	Moved       Kind = 'R' // the same file (inode) at another path
	Racy        Kind = '?' // possibly changed: its stat cannot tell, or it was not read when the snapshot was taken
	Unreadable  Kind = '!' // could not be read now: nothing is known of it or below it
)

// Fields is a set of fields that differ.
type Fields uint32

const (
	FieldType Fields = 1 << iota
	FieldPerm
	FieldSize
	FieldModTime
	FieldChangeTime
	FieldFileID
	FieldLinks
	FieldOwner
	FieldTarget
	FieldHash
)

// content is the fields whose change makes Modified rather than
// MetaChanged.
const content = FieldSize | FieldModTime | FieldFileID | FieldTarget | FieldHash

var fieldNames = []string{"type", "perm", "size", "mtime", "ctime", "inode", "links", "owner", "target", "hash"}

// Names returns the fields' names, in a fixed order.
func (f Fields) Names() []string {
	var out []string
	for i, n := range fieldNames {
		if f&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// Change is one path that differs between a snapshot and the tree, or a
// later snapshot.
type Change struct {
	Kind Kind
	// Path is relative to the root, its names joined by "/": the new path
	// of a move.
	Path    string
	OldPath string // a move's old path
	// Old and New are the entry as recorded and as found: Old is zero for
	// Added, New for Removed and Unreadable.
	Old, New Entry
	Fields   Fields // what differs, for Modified, MetaChanged and Moved
	// Err says why for Unreadable, and for Racy whether the snapshot could
	// not read it (ErrNotRead) or its stat cannot tell (nil).
	Err error

	movable bool // may be half of a move (see rules.movable)
}
