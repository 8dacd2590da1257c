package dutree

import (
	"bufio"
	"io"
	"strconv"
)

// Meta is the metadata of an ncdu export: who wrote it and when.
type Meta struct {
	Progname, Progver string
	Timestamp         int64
}

// WriteOptions say what an export holds beyond ncdu's defaults.
type WriteOptions struct {
	Meta
	Mtime bool // each entry's modification time (ncdu's -e writes it)
	// Extended writes each entry's owner, group, mode and modification
	// time, as ncdu -e does ("uid", "gid", "mode", "mtime"), where known.
	Extended bool
}

// Write writes t in ncdu's JSON export format, version 1.2
// (https://dev.yorhel.nl/ncdu/jsonfmt): what `ncdu -o` writes, read by
// `ncdu -f` and `gdu -f`. Names are written as ncdu writes them: their
// bytes as they are, valid UTF-8 or not, with quotes, backslashes and
// control characters escaped.
func Write(w io.Writer, t *Tree, o WriteOptions) error {
	e := newEncoder(w, o)
	e.allInodes = t.FollowLinks
	e.header()
	root := t.Root()
	e.node(&root, ^root.Dir.Dev)
	e.raw("]\n")
	return e.w.Flush()
}

// StreamOptions are what fdu's command line asks of an export written as
// its scan goes (Stream).
type StreamOptions struct {
	Exclude       func(path string) bool // --exclude: true leaves the entry out, marked excluded
	OneFileSystem bool                   // -x: another file system's directories marked otherfs, not entered
	OnError       func(Error)            // each entry that could not be read, when met
}

func newEncoder(w io.Writer, o WriteOptions) *encoder {
	return &encoder{w: bufio.NewWriterSize(w, 64<<10), o: o}
}

// header writes what comes before the root: the version and metadata.
func (e *encoder) header() {
	e.raw(`[1,2,{"progname":`)
	e.str(e.o.Progname)
	e.raw(`,"progver":`)
	e.str(e.o.Progver)
	e.raw(`,"timestamp":`)
	e.int(e.o.Timestamp)
	e.raw("},\n")
}

type encoder struct {
	w *bufio.Writer
	o WriteOptions
	// allInodes writes every file as a hard link (its inode, hlnkc): in a
	// tree walked through links (-L) one file may be met at several paths
	// whatever its link count, and a reader counts it once only so.
	allInodes bool
}

func (e *encoder) raw(s string) { e.w.WriteString(s) }
func (e *encoder) int(n int64)  { e.w.Write(strconv.AppendInt(e.w.AvailableBuffer(), n, 10)) }
func (e *encoder) uint(n uint64) {
	e.w.Write(strconv.AppendUint(e.w.AvailableBuffer(), n, 10))
}

// node writes n, a directory as an array of its info and its entries;
// parentDev is its parent's device, written again only where it changes.
func (e *encoder) node(n *Node, parentDev uint64) {
	if n.Dir == nil {
		e.info(n, parentDev)
		return
	}
	e.raw("[")
	e.info(n, parentDev)
	c := n.Dir.cursor()
	var k Node
	for c.next(&k) {
		e.raw(",\n")
		e.node(&k, n.Dir.Dev)
	}
	e.raw("]")
}

func (e *encoder) info(n *Node, parentDev uint64) {
	e.raw(`{"name":`)
	e.str(n.Name)
	field := func(name string, v int64) {
		if v != 0 {
			e.raw(`,"` + name + `":`)
			e.int(v)
		}
	}
	field("asize", n.Asize)
	field("dsize", n.Dsize)
	if n.Dir != nil && n.Dir.Dev != parentDev && !(n.Dir.Dev == 0 && parentDev == ^uint64(0)) {
		e.raw(`,"dev":`)
		e.uint(n.Dir.Dev)
	}
	if n.Dir == nil && (n.Flags&HardLink != 0 || e.allInodes && n.Ino != 0) { // a directory reached again under -L is not a file's link
		e.raw(`,"ino":`)
		e.uint(n.Ino)
		e.raw(`,"hlnkc":true`)
		if n.Nlink > 0 {
			e.raw(`,"nlink":`)
			e.uint(uint64(n.Nlink))
		}
	}
	if n.Flags&(ReadError|Unfinished) != 0 {
		e.raw(`,"read_error":true`) // what ncdu and gdu show of an unfinished one
	}
	if n.Flags&Unfinished != 0 {
		e.raw(`,"unfinished":true`)
	}
	switch {
	case n.Flags&OtherFS != 0:
		e.raw(`,"excluded":"otherfs"`)
	case n.Flags&KernFS != 0:
		e.raw(`,"excluded":"kernfs"`)
	case n.Flags&Excluded != 0:
		e.raw(`,"excluded":"pattern"`)
	}
	if n.Flags&NotReg != 0 {
		e.raw(`,"notreg":true`)
	}
	switch {
	case e.o.Extended && n.Ext.Mode != 0:
		e.raw(`,"uid":`)
		e.uint(uint64(n.Ext.Uid))
		e.raw(`,"gid":`)
		e.uint(uint64(n.Ext.Gid))
		e.raw(`,"mode":`)
		e.uint(uint64(n.Ext.Mode))
	case n.Flags&Symlink != 0:
		e.raw(`,"mode":41471`) // S_IFLNK|0777: the only way the format tells a link
	}
	if (e.o.Mtime || e.o.Extended) && n.Mtime != 0 {
		e.raw(`,"mtime":`)
		e.int(n.Mtime)
	}
	e.raw("}")
}

// str writes s as a JSON string the way ncdu does: bytes of 0x80 and up
// as they are, so a name that is not UTF-8 comes back byte for byte.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	e.w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		e.w.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			e.w.WriteByte('\\')
			e.w.WriteByte(c)
		case '\n':
			e.raw(`\n`)
		case '\r':
			e.raw(`\r`)
		case '\t':
			e.raw(`\t`)
		case '\b':
			e.raw(`\b`)
		case '\f':
			e.raw(`\f`)
		default:
			e.raw(`\u00`)
			e.w.WriteByte(hex[c>>4])
			e.w.WriteByte(hex[c&15])
		}
		start = i + 1
	}
	e.w.WriteString(s[start:])
	e.w.WriteByte('"')
}
