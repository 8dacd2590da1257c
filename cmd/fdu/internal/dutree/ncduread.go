package dutree

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// SyntaxError is a malformed or truncated export, with where it went wrong.
type SyntaxError struct {
	Line, Column int   // from 1; the column counts bytes
	Offset       int64 // bytes from the start
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, e.Msg)
}

// Read reads an export in ncdu's JSON format (major version 1, any minor
// version), as `ncdu -o`, `gdu -o`, Write and Stream write it, and counts
// it; a stopped Stream's is Incomplete. A
// malformed or truncated file is a *SyntaxError. Any depth reads without
// recursion; unknown fields are skipped.
func Read(r io.Reader) (*Tree, Meta, error) { return ReadWith(r, ReadOptions{}) }

// ReadOptions say what Read keeps beyond the sizes.
type ReadOptions struct {
	// Extended keeps each entry's "uid", "gid" and "mode" (ncdu -e's
	// fields) as its Ext: the tree is Extended.
	Extended bool
}

// ReadWith is Read with o.
func ReadWith(r io.Reader, o ReadOptions) (*Tree, Meta, error) {
	d := &decoder{r: bufio.NewReaderSize(r, 64<<10), line: 1, col: 1, extended: o.Extended}
	t, meta, err := d.top()
	if err != nil {
		return nil, meta, err
	}
	t.Extended = o.Extended
	t.Incomplete = d.unfinished // until Recount finds nothing Unfinished
	t.Recount()
	return t, meta, nil
}

func (d *decoder) top() (*Tree, Meta, error) {
	var meta Meta
	if err := d.expect('['); err != nil {
		return nil, meta, err
	}
	major, err := d.number()
	if err == nil && major != 1 {
		err = d.fail("major version %v: only 1 is known", major)
	}
	if err == nil {
		err = d.expect(',')
	}
	var minor float64
	if err == nil {
		minor, err = d.number()
	}
	if err == nil && (minor < 0 || minor > 10000) {
		err = d.fail("minor version %v out of range", minor)
	}
	if err == nil {
		err = d.expect(',')
	}
	if err == nil {
		meta, err = d.metadata()
	}
	if err == nil {
		err = d.expect(',')
	}
	if err == nil && d.peek() != '[' {
		err = d.fail("expected the root directory's '['")
	}
	var t *Tree
	if err == nil {
		t, err = d.tree()
	}
	if err == nil {
		err = d.expect(']')
	}
	if err == nil && d.peek() != 0 {
		err = d.fail("data after the end of the export")
	}
	if err == nil && d.err != nil {
		err = d.err
	}
	return t, meta, err
}

// metadata reads the metadata object, keeping what Meta has room for.
func (d *decoder) metadata() (Meta, error) {
	var m Meta
	err := d.object(func(key string) error {
		switch key {
		case "progname", "progver":
			if d.peek() != '"' {
				return d.skip()
			}
			s, err := d.str()
			if key == "progname" {
				m.Progname = string(s)
			} else {
				m.Progver = string(s)
			}
			return err
		case "timestamp":
			f, err := d.num()
			m.Timestamp = f.clampInt(0)
			return err
		}
		return d.skip()
	})
	return m, err
}

// maxDepth bounds the nesting read: Recount and Write recurse, one frame
// a level, within Go's stack limit (a million levels is far deeper than
// any tree a scan meets).
const maxDepth = 1000000

// frame is a directory being read: its entry, and its entries so far,
// packed as they come.
type frame struct {
	node Node
	p    packer
}

// tree reads the root directory's array and all below it, with a stack of
// the directories open rather than recursion. The frames of a depth are
// reused, and with them their buffers: what reading holds beyond the
// tree is bounded by the depth and the widest directory.
func (d *decoder) tree() (*Tree, error) {
	d.next() // '['
	n, err := d.info()
	if err != nil {
		return nil, err
	}
	var stack []*frame // the open directories, and spare frames past depth
	depth := 0
	push := func(n *info, dev uint64) {
		if n.hasDev {
			dev = n.dev
		}
		if depth == len(stack) {
			stack = append(stack, new(frame))
		}
		f := stack[depth]
		f.node = n.Node
		f.node.Name = strings.Clone(n.Name) // kept until the directory ends
		f.node.Dir = &Dir{Dev: dev}
		f.node.Flags &^= HardLink // a directory is no file's link: the export never says so
		f.p.reset()
		f.p.ext = d.extended
		depth++
	}
	push(&n, 0)
	for { // the last directory's ']' returns
		top := stack[depth-1]
		switch b := d.peek(); b {
		case ',':
			d.next()
			if err := d.entry(top, depth, func(n *info) { push(n, top.node.Dir.Dev) }); err != nil {
				return nil, err
			}
		case ']':
			d.next()
			top.p.into(top.node.Dir)
			depth--
			if depth == 0 {
				return NewTree(top.node), nil
			}
			stack[depth-1].p.add(&top.node)
		case 0:
			return nil, d.fail("unexpected end of file inside directory %q", top.node.Name)
		default:
			return nil, d.fail("expected ',' or ']', found %s", quoteByte(b))
		}
	}
}

// entry reads the entry after a comma in the directory top, at depth: a
// file, packed in top, or a directory's opening, given to open.
func (d *decoder) entry(top *frame, depth int, open func(*info)) error {
	switch d.peek() {
	case '[':
		d.next()
		n, err := d.info()
		if err != nil {
			return err
		}
		if depth >= maxDepth {
			return d.fail("directories nested deeper than %d", maxDepth)
		}
		open(&n)
		return nil
	case '{':
		n, err := d.info()
		if err != nil {
			return err
		}
		top.p.add(&n.Node)
		return nil
	}
	return d.fail("expected an entry ('{' or '[')")
}

// info is an info object read, and the device it named, if it did. Its
// Name is in the decoder's buffer, valid until the next info.
type info struct {
	Node
	dev    uint64
	hasDev bool
}

func (d *decoder) info() (info, error) {
	if d.peek() != '{' {
		return info{}, d.fail("expected an info object ('{')")
	}
	var n info
	named := false
	err := d.object(func(key string) error {
		switch key {
		case "name":
			if d.peek() != '"' {
				return d.fail("a name must be a string")
			}
			s, err := d.str()
			d.name = append(d.name[:0], s...)
			n.Name, named = unsafeString(d.name), true
			return err
		case "asize", "dsize":
			v, err := d.size()
			if key == "asize" {
				n.Asize = v
			} else {
				n.Dsize = v
			}
			return err
		case "dev", "ino", "nlink":
			return d.ids(key, &n)
		case "mtime":
			f, err := d.num()
			n.Mtime = f.clampInt(math.MinInt64 / 2) // before 1970 kept; far before is noise
			return err
		case "mode":
			f, err := d.num()
			if f.clampUint()&0o170000 == 0o120000 {
				n.Flags |= Symlink
			}
			if d.extended {
				n.Ext.Mode = uint32(min(f.clampUint(), math.MaxUint32))
			}
			return err
		case "uid", "gid":
			f, err := d.num()
			if d.extended {
				v := uint32(min(f.clampUint(), math.MaxUint32))
				if key == "uid" {
					n.Ext.Uid = v
				} else {
					n.Ext.Gid = v
				}
			}
			return err
		case "hlnkc", "read_error", "notreg", "unfinished":
			return d.flag(key, &n.Node)
		case "excluded":
			return d.excluded(&n.Node)
		}
		return d.skip()
	})
	if err == nil && !named {
		err = d.fail("an entry without a name")
	}
	if n.Flags&HardLink == 0 {
		n.Nlink = max(n.Nlink, 1)
	}
	if n.Flags&Unfinished != 0 {
		n.Flags &^= ReadError // written for ncdu's sake: never read, not failed
		d.unfinished = true
	}
	return n, err
}

// ids reads a device, inode or link count into n.
func (d *decoder) ids(key string, n *info) error {
	f, err := d.num()
	v := f.clampUint()
	switch key {
	case "dev":
		n.dev, n.hasDev = v, true
	case "ino":
		n.Ino = v
	default:
		n.Nlink = uint32(min(v, math.MaxUint32))
	}
	return err
}

func (d *decoder) flag(key string, n *Node) error {
	v, err := d.boolean()
	if !v {
		return err
	}
	switch key {
	case "hlnkc":
		n.Flags |= HardLink
	case "read_error":
		n.Flags |= ReadError
	case "notreg":
		n.Flags |= NotReg
	case "unfinished":
		n.Flags |= Unfinished
	}
	return err
}

// excluded reads ncdu's reason ("pattern", "otherfs", "kernfs",
// "frmlnk"; true in old files).
func (d *decoder) excluded(n *Node) error {
	if d.peek() != '"' {
		v, err := d.boolean()
		if v {
			n.Flags |= Excluded
		}
		return err
	}
	s, err := d.str()
	switch string(s) {
	case "otherfs", "othfs":
		n.Flags |= OtherFS
	case "kernfs":
		n.Flags |= KernFS
	default:
		n.Flags |= Excluded
	}
	return err
}

func (d *decoder) size() (int64, error) {
	f, err := d.num()
	if err == nil && f.f < 0 {
		return 0, d.fail("a negative size")
	}
	return f.clampInt(0), err
}

// knownKey is key as one of the keys read, or "" for another: a constant,
// so that no key read is a string allocated.
func knownKey(key []byte) string {
	for _, k := range [...]string{"name", "asize", "dsize", "dev", "ino", "nlink", "mtime", "mode", "uid", "gid",
		"hlnkc", "read_error", "notreg", "unfinished", "excluded", "progname", "progver", "timestamp"} {
		if string(key) == k {
			return k
		}
	}
	return ""
}
