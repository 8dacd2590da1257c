package snapshot

import (
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"time"
)

// Reader reads a snapshot directory by directory, in path order, checking
// every block's checksum before it decodes it: a corrupt, truncated or
// foreign file is an error wrapping ErrFormat (a *FormatError with the
// byte offset), never a wrong listing.
type Reader struct {
	br *blockReader
	h  Header

	prev     Entry
	prevPerm [8]uint32
	prevOwn  Entry
	prevPath string
	prevDev  int
	devs     []Device
	owners   [][2]uint32
	prevOwnr int
	dirs     uint64
	entries  uint64
	err      error        // sticky: the first error, or io.EOF at the end
	free     chan []Entry // where a compare hands back directories' entries
}

// Dir is one directory of a snapshot.
type Dir struct {
	// Path is the directory's path relative to the root, its names joined
	// by "/"; "" for the root.
	Path string
	// Self is the directory's own stat, taken before it was listed: its
	// FileID, ModTime, ChangeTime and Device only.
	Self Entry
	// Device is the file system the directory is on.
	Device Device
	// Entries are its entries sorted by name. A directory among them that
	// has no Dir of its own in the snapshot could not be read when it was
	// taken (it vanished, was unreadable, or was excluded).
	Entries []Entry

	devs []Device // the device table as of this directory, for its entries
}

// NewReader reads a snapshot's header from r.
func NewReader(r io.Reader) (*Reader, error) {
	br, err := newBlockReader(r)
	if err != nil {
		return nil, err
	}
	rd := &Reader{br: br, prevDev: -1, prevOwnr: -1}
	if err := rd.header(); err != nil {
		return nil, err
	}
	return rd, nil
}

// Header returns the snapshot's header.
func (r *Reader) Header() Header { return r.h }

// Devices returns the file systems met so far.
func (r *Reader) Devices() []Device { return r.devs }

// dec decodes one item from a checked block, noting the first problem.
type dec struct {
	b   []byte
	i   int
	bad string // what is wrong at i, if anything
}

func (d *dec) fail(why string) {
	if d.bad == "" {
		d.bad = why
	}
}

func (d *dec) uvarint() uint64 {
	if d.bad != "" {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		d.fail("bad number or an item cut short")
		return 0
	}
	d.i += n
	return v
}

// varint is binary.Varint's zigzag decoding on uvarint, which reads the
// same bytes and fails where it fails.
func (d *dec) varint() int64 {
	ux := d.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

func (d *dec) byte() byte {
	if d.bad != "" || d.i >= len(d.b) {
		d.fail("an item cut short")
		return 0
	}
	d.i++
	return d.b[d.i-1]
}

func (d *dec) bytes(n uint64) []byte {
	if d.bad != "" || n > uint64(len(d.b)-d.i) {
		d.fail("an item cut short")
		return nil
	}
	d.i += int(n)
	return d.b[d.i-int(n) : d.i]
}

// item decodes the next item with fn; a problem it notes is an error at
// the item's offset.
func (r *Reader) item(fn func(d *dec)) error {
	d, err := r.nextItem()
	if err != nil {
		return err
	}
	fn(&d)
	if d.bad != "" {
		return &FormatError{r.br.offset(d.i), d.bad}
	}
	r.br.used(d.i)
	return nil
}

// nextItem is a decoder of the next item: a snapshot that ends before
// its end record is malformed.
func (r *Reader) nextItem() (dec, error) {
	b, err := r.br.item()
	if err == io.EOF {
		return dec{}, &FormatError{r.br.pos, "no end record"}
	}
	return dec{b: b}, err
}

func (r *Reader) header() error {
	return r.item(func(d *dec) {
		if d.byte() != tagHeader {
			d.fail("no header")
		}
		r.h.Version = version
		r.h.Keys = Keys(d.uvarint())
		r.h.Hash = HashMode(d.uvarint())
		r.h.Start = d.varint()
		r.h.ClockStep = time.Duration(d.uvarint())
		r.h.Root = string(d.bytes(d.uvarint()))
		n := d.uvarint()
		for i := uint64(0); i < n && d.bad == ""; i++ {
			r.h.Exclude = append(r.h.Exclude, string(d.bytes(d.uvarint())))
		}
		if _, err := newExcluder(r.h.Exclude); err != nil {
			d.fail(err.Error())
		}
		switch {
		case r.h.Keys&^AllKeys != 0:
			d.fail(fmt.Sprintf("unknown keys %#x", uint32(r.h.Keys&^AllKeys)))
		case r.h.Hash > HashAll:
			d.fail(fmt.Sprintf("unknown hash mode %d", r.h.Hash))
		case r.h.ClockStep < 0:
			d.fail("negative clock step")
		}
	})
}

// Next returns the next directory, or io.EOF after the last once the end
// record's counts and the end marker are checked.
func (r *Reader) Next() (*Dir, error) {
	if r.err != nil {
		return nil, r.err
	}
	dir, err := r.next()
	if err != nil {
		r.err = err
	}
	return dir, err
}

func (r *Reader) next() (*Dir, error) {
	var dir *Dir
	var count uint64
	var end bool
	err := r.item(func(d *dec) {
		switch d.byte() {
		case tagDir:
			dir, count = r.dirHead(d)
		case tagEnd:
			end = true
			r.endRecord(d)
		default:
			d.fail("unknown item")
		}
	})
	if err != nil {
		return nil, err
	}
	if end {
		if err := r.br.next(); err != io.EOF {
			if err == nil {
				err = &FormatError{r.br.base, "data after the end record"}
			}
			return nil, err
		}
		return nil, io.EOF
	}
	if err := r.readEntries(dir, count); err != nil {
		return nil, err
	}
	// A full slice expression: the table's later appends, which another
	// goroutine may make, never write where a Dir reads.
	dir.devs = r.devs[:len(r.devs):len(r.devs)]
	return dir, nil
}

// readEntries decodes a directory's count entries, as many from each
// block as it holds.
func (r *Reader) readEntries(dir *Dir, count uint64) error {
	dir.Entries = r.entrySlice(count)
	names := make([]byte, 0, 12*min(count, 1<<12))
	for n := uint64(0); n < count; {
		d, err := r.nextItem()
		if err != nil {
			return err
		}
		for ; n < count && d.i < len(d.b); n++ {
			var prevName string
			if k := len(dir.Entries); k > 0 {
				prevName = dir.Entries[k-1].Name
			}
			var x Entry
			names, x = r.entry(&d, names, prevName, &dir.Device)
			if d.bad != "" {
				return &FormatError{r.br.offset(d.i), d.bad}
			}
			dir.Entries = append(dir.Entries, x)
		}
		r.br.used(d.i)
	}
	return nil
}

// recycle hands d's entries back for a later directory to be read into,
// where a compare has asked for it (recycling): d must not be used again.
func (r *Reader) recycle(d *Dir) {
	if r.free == nil {
		return
	}
	select {
	case r.free <- d.Entries:
	default:
	}
	d.Entries = nil
}

// recycling makes the reader reuse the entries handed back by recycle.
func (r *Reader) recycling() { r.free = make(chan []Entry, prefetchWindow) }

// entrySlice returns an empty slice for count entries: one handed back
// through free, where a compare recycles them, or a new one.
func (r *Reader) entrySlice(count uint64) []Entry {
	select {
	case s := <-r.free:
		return slices.Grow(s[:0], int(min(count, 1<<16)))
	default:
	}
	return make([]Entry, 0, min(count, 1<<16))
}

func (r *Reader) endRecord(d *dec) {
	dirs, entries := d.uvarint(), d.uvarint()
	if d.bad == "" && (dirs != r.dirs || entries != r.entries) {
		d.fail(fmt.Sprintf("the end record counts %d directories and %d entries, the file holds %d and %d", dirs, entries, r.dirs, r.entries))
	}
}

// dirHead decodes a directory's head: its path, device, own stat and the
// count of its entries.
func (r *Reader) dirHead(d *dec) (*Dir, uint64) {
	shared := d.uvarint()
	suffix := d.bytes(d.uvarint())
	if shared > uint64(len(r.prevPath)) {
		d.fail("a path shares more than the previous one has")
		return nil, 0
	}
	path := r.prevPath[:shared] + string(suffix)
	switch {
	case r.dirs == 0 && path != "":
		d.fail("the first directory is not the root")
	case r.dirs > 0 && !validPath(path):
		d.fail(fmt.Sprintf("bad path %q", path))
	case r.dirs > 0 && comparePaths(r.prevPath, path) >= 0:
		d.fail(fmt.Sprintf("directory %q out of order after %q", path, r.prevPath))
	}
	flags := d.uvarint()
	if flags&^dirDevice != 0 {
		d.fail("unknown directory flags")
	}
	if flags&dirDevice != 0 {
		r.prevDev = r.device(d)
	} else if r.prevDev < 0 {
		d.fail("the root has no device")
	}
	self := Entry{Type: fs.ModeDir}
	self.FileID = r.prevOwn.FileID + uint64(d.varint())
	self.ModTime = r.prevOwn.ModTime + d.varint()
	self.ChangeTime = r.prevOwn.ChangeTime + d.varint()
	count := d.uvarint()
	if d.bad != "" {
		return nil, 0
	}
	dev := r.devs[r.prevDev]
	self.Device = dev.ID
	self.Name = path[lastSlash(path)+1:]
	r.prevOwn, r.prevPath = self, path
	r.dirs++
	return &Dir{Path: path, Self: self, Device: dev}, count
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// validPath reports whether every element of a relative path is a name.
func validPath(path string) bool {
	for path != "" {
		i := 0
		for i < len(path) && path[i] != '/' {
			i++
		}
		if !validName(path[:i]) {
			return false
		}
		if i == len(path) {
			break
		}
		path = path[i+1:]
		if path == "" {
			return false
		}
	}
	return true
}

// device decodes a device reference, defining the device on first use,
// and returns its index.
func (r *Reader) device(d *dec) int {
	i := d.uvarint()
	switch {
	case d.bad != "":
		return 0
	case i < uint64(len(r.devs)):
		return int(i)
	case i > uint64(len(r.devs)):
		d.fail("a device used before it is defined")
		return 0
	}
	dv := Device{ID: d.uvarint(), FSType: d.uvarint(), Granularity: time.Duration(d.uvarint())}
	flags := d.uvarint()
	dv.DirTimes, dv.StableIDs, dv.ChangeTimes = flags&devDirTimes != 0, flags&devStableIDs != 0, flags&devChangeTimes != 0
	if flags&^(devDirTimes|devStableIDs|devChangeTimes) != 0 || dv.Granularity < 0 {
		d.fail("bad device")
	}
	r.devs = append(r.devs, dv)
	return int(i)
}
