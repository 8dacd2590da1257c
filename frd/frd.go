package frd

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrMalformed is returned when a buffer the kernel filled does not hold the
// records it claims. It never describes the directory being read: it means a
// kernel whose layout this package does not know, and is worth a bug report.
var ErrMalformed = errors.New("frd: malformed directory buffer")

// Entry is one directory entry. Name and Type are always set; every other
// field is filled for regular files only and is zero for every other type,
// and for every entry of a [Lister.Names] listing.
//
// Entry is comparable: an entry that == the one from an earlier listing has
// the same name, type, size, times, file id, allocation, link count and
// device. Since == includes the change time, a permissions change counts as
// a change on the platforms that report one.
//
// The times are Unix nanoseconds, which hold the years 1678 to 2262. A time
// outside them (file systems keep 2^63-1 seconds) is math.MaxInt64 or
// math.MinInt64, never a wrapped value: stat the file for its seconds.
//
// The names from one read of the kernel's buffer share one allocation, so a
// Name kept long after its neighbours are gone is worth a [strings.Clone].
type Entry struct {
	Name            string      // the name within its directory, without a path
	Type            fs.FileMode // type bits only, as fs.DirEntry.Type reports them
	Size            int64       // a regular file's data length in bytes
	ModTimeNanos    int64       // a regular file's modification time, Unix nanoseconds
	ChangeTimeNanos int64       // its status change time; macOS, Linux and Windows
	FileID          uint64      // its number on the volume (inode); 0 if unknown

	// What a disk-usage tool needs, from the same stat, so that nobody has
	// to stat the file again. Regular files only, like the fields above.

	// Allocated is the space the file takes on disk in bytes: st_blocks*512
	// on Linux and the portable fallback; smaller than Size for a sparse
	// file, and 0 for data kept inline or not yet written back.
	Allocated int64
	// Links is the file's hard-link count (st_nlink); 0 where unknown.
	Links uint64
	// Device identifies the file system holding the file, as st_dev does
	// (major and minor combined as makedev does on Linux); 0 where unknown.
	// With FileID it identifies the file: two entries with the same nonzero
	// (Device, FileID) are hard links to one file.
	Device uint64
}

// ModTime returns ModTimeNanos as a time in the local time zone, as
// time.Unix gives it: the Unix epoch for anything but a regular file.
func (e Entry) ModTime() time.Time {
	return time.Unix(0, e.ModTimeNanos)
}

// ID identifies a file: its device and its number there (inode). Two
// entries with the same nonzero ID are hard links to one file.
type ID struct{ Dev, Ino uint64 }

// ID returns e's identity, (Device, FileID).
func (e Entry) ID() ID { return ID{e.Device, e.FileID} }

// CompareName compares a and b by Name only, in byte order, the order
// [os.ReadDir] returns: negative when a sorts first, zero when the names are
// equal, positive when b sorts first.
func CompareName(a, b Entry) int {
	return strings.Compare(a.Name, b.Name)
}

// SortByName sorts entries in place by name in byte order, the order
// [os.ReadDir] returns. It is stable and allocates nothing.
func SortByName(entries []Entry) {
	slices.SortStableFunc(entries, CompareName)
}

// ReadDir lists the directory name and returns its entries sorted by name,
// as [os.ReadDir] does; an empty, non-nil slice for an empty directory.
//
// The error is nil, or an *os.PathError: from the open (ENOTDIR for a name
// that is not a directory), or from the listing or an entry's stat, with the
// entries read before it. Its errors can differ from os.ReadDir's, since it
// also reads each file's metadata: on Linux, a directory that may be read but
// not searched fails at the first name that has to be stat'ed.
//
// It borrows a pooled buffer, as the function [AppendDir] does; a walker
// keeps a [Lister] instead.
func ReadDir(name string) ([]Entry, error) {
	entries, err := readDir(name)
	if entries == nil {
		entries = []Entry{}
	}
	sortUnique(entries)
	return entries, err
}

// sortUnique sorts entries whose names are all different (one directory's)
// by name. It sorts their indexes, moving 4 bytes a swap rather than an
// 80-byte Entry, then moves each Entry once to its place; unique names make
// the faster unstable sort's order the stable one.
func sortUnique(entries []Entry) {
	if len(entries) < 2 || uint64(len(entries)) > math.MaxUint32 {
		slices.SortFunc(entries, CompareName)
		return
	}
	p := indexPool.Get().(*[]uint32)
	idx := (*p)[:0]
	for i := range entries {
		idx = append(idx, uint32(i))
	}
	sortNames(idx, entries)
	// Place k takes entries[idx[k]]: follow each cycle of the permutation,
	// marking a place done by idx[k] = k.
	for k := range idx {
		if idx[k] == uint32(k) {
			continue
		}
		tmp := entries[k]
		j := uint32(k)
		for {
			next := idx[j]
			idx[j] = j
			if next == uint32(k) {
				entries[j] = tmp
				break
			}
			entries[j] = entries[next]
			j = next
		}
	}
	*p = idx
	indexPool.Put(p)
}

// indexPool lends sortUnique its indexes.
var indexPool = sync.Pool{New: func() any { return new([]uint32) }}

// AppendDir reads the open directory dir from its current offset to its end
// and appends one Entry per name to dst, in the order the kernel gives them.
//
//   - "." and ".." are never included.
//   - A symbolic link is reported as a link and never followed.
//   - A name removed between the read and its stat is left out.
//   - The error is nil, or an *os.PathError naming the entry that failed, or
//     the directory when the listing call itself failed; the entries read
//     before it are returned with it.
//
// dir is not closed. Don't mix AppendDir with dir's own ReadDir, Readdir or
// Readdirnames: they buffer entries the native listing cannot see. Reopen
// the directory to switch.
//
// AppendDir borrows its 64 KiB buffer from a sync.Pool, which may drop it at
// any garbage collection; a walker keeps a [Lister] per goroutine instead.
func AppendDir(dst []Entry, dir *os.File) ([]Entry, error) {
	l := listerPool.Get().(*Lister)
	dst, err := l.AppendDir(dst, dir)
	listerPool.Put(l)
	return dst, err
}

// listerPool lends the function AppendDir and ReadDir a Lister, buffer and
// all, with Names and Rewind unset.
var listerPool = sync.Pool{New: func() any { return new(Lister) }}

// grow returns dst with room for n more entries, doubling its capacity when
// it must grow, so a large directory read in many buffers copies its
// entries a few times only (append's growth slows to 1.25x for large slices).
func grow(dst []Entry, n int) []Entry {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	grown := make([]Entry, len(dst), max(2*cap(dst), len(dst)+n))
	copy(grown, dst)
	return grown
}

// A Lister owns the buffer the kernel fills, so a walker that keeps one per
// goroutine allocates only a few times per directory.
//
// The zero Lister is ready to use. It must not be used by two goroutines at
// once, nor copied after its first use. One directory is listed by one
// goroutine at a time: two calls on one descriptor share its offset and
// split its entries between them, or under Rewind repeat or skip them.
type Lister struct {
	// Names lists names and types only: every Entry has Name and Type, and
	// every other field is zero. On Linux it skips the statx per file; an
	// entry whose record carries no type (a file system without d_type) is
	// still stat'ed for its type. Set it before the first call on a
	// directory and keep it for that directory.
	Names bool

	// Rewind lists each directory from its first entry rather than from the
	// descriptor's position, so a descriptor listed before lists again in
	// full. On Linux the descriptor is moved to its start with lseek first.
	Rewind bool

	// FastStats, on Linux, lets the stats of a listing bypass the
	// scheduler's system-call bookkeeping (a third of a cached statx's
	// cost) while they run as fast as cached ones on a local disk or in
	// memory; a slow window of stats, a file on another device, or a
	// network, FUSE, overlay, loop or nbd file system goes through the
	// scheduler. A stat that does block meanwhile (the disk read, or the
	// disk stalls) holds its P, and with it the collector's stop of the
	// world, until it returns: leave it off unless the tree is on local,
	// healthy disks (a build tree, a cache). Elsewhere it does nothing.
	FastStats bool

	// ReuseNames keeps the names of each call in storage the Lister
	// reuses, as bufio.Scanner.Bytes does its buffer: an Entry's Name is
	// then valid only until the Lister's next call, and must be copied
	// (strings.Clone) to be kept. It saves the one allocation per read
	// that the names share, for a caller that looks at each listing once,
	// such as a disk-usage count. Where the names come from package os
	// (the portable fallback) they stay valid as usual.
	ReuseNames bool

	// Vanished, when set, is called with the name of each entry left out
	// because it was removed between the directory's read and its stat
	// (the name is valid during the call, as under ReuseNames). du
	// reports such an entry as one it cannot access; most callers need
	// not know.
	Vanished func(name string)

	// Failed, when set, is given the error (an *os.PathError naming the
	// entry) of each entry whose stat fails for another reason, and the
	// entry is left out while the call goes on, rather than ending with
	// that error. A walk reports each (du does, for a directory that may
	// be read but not searched).
	Failed func(err error)

	//lint:ignore U1000 the portable fallback's names come from package os
	names []byte // the names' storage under ReuseNames
	//lint:ignore U1000 the portable fallback has no buffers
	sys sysLister // the platform's buffers

	_ noCopy
}

// vanish tells Vanished, if set, that name is gone.
func (l *Lister) vanish(name string) {
	if l.Vanished != nil {
		l.Vanished(name)
	}
}

// fail hands err to Failed and reports whether the call goes on.
func (l *Lister) fail(err error) bool {
	if l.Failed == nil {
		return false
	}
	l.Failed(err)
	return true
}

// noCopy makes go vet's copylocks check report a Lister copied by value.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// AppendDir takes and returns what the function [AppendDir] does, and under
// Rewind reads dir from its first entry.
func (l *Lister) AppendDir(dst []Entry, dir *os.File) ([]Entry, error) {
	if dir == nil {
		return dst, &os.PathError{Op: "readdir", Path: "", Err: os.ErrInvalid}
	}
	return l.appendFile(dst, dir)
}

// AppendHandle lists the raw directory descriptor fd (a Unix file
// descriptor, the value os.File.Fd returns) and appends one Entry per name
// to dst, as [AppendDir] does. It reads from the descriptor's current
// position, or from its first entry under Rewind, and never closes it. name
// is the directory's path, used only in errors.
//
// A descriptor taken from os.File.Fd needs that os.File kept reachable until
// the call returns, since its finalizer closes the descriptor.
//
// On platforms without a bulk listing here it returns an error wrapping
// [errors.ErrUnsupported].
func (l *Lister) AppendHandle(dst []Entry, fd uintptr, name string) ([]Entry, error) {
	return l.appendHandle(dst, fd, name)
}

// AppendPart is AppendHandle reading about one kernel buffer: on Linux
// getdents64 calls until one fills most of the buffer, this call has
// appended 4,096 entries or more, or the directory ends (a file system
// such as FUSE answers a page at a time), their entries appended and
// stat'ed as the Lister's options ask. done reports that the directory is
// at its end; a part that is neither done nor failed holds an entry,
// since a read that adds none ("." and ".." alone, or files removed
// before their stats) is followed by the next. A caller that only counts
// sees a huge directory a buffer at a time, and holds no more than that.
// It reads from the descriptor's position, Rewind or not. Under
// ReuseNames a part's names are valid until the next call. Elsewhere it
// reads to the end for now, and reports done.
func (l *Lister) AppendPart(dst []Entry, fd uintptr, name string) (_ []Entry, done bool, err error) {
	return l.appendPart(dst, fd, name)
}

// Stat fills in the metadata of the regular files among entries, as a full
// listing would have: entries from a Names listing of the open directory
// fd (a Unix descriptor, never closed), or any part of one. It lets a
// walker list a huge directory's names once and stat its files from
// several goroutines, each with its own Lister. On Linux each file is one
// statx relative to fd; the portable fallback lstats dir joined with the
// name.
//
// An entry removed since the listing is left out, so the result may be
// shorter than entries, whose storage it reuses; one whose type changed
// takes the type the stat saw. The error is nil, or an *os.PathError naming
// the entry that failed, returned with the entries before it.
func (l *Lister) Stat(entries []Entry, fd uintptr, dir string) ([]Entry, error) {
	return l.stat(entries, fd, dir)
}

// joinName is the path an error about the entry name of dir names.
func joinName(dir, name string) string {
	if dir == "" {
		return name
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
