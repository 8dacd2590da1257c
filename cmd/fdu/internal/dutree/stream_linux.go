//go:build linux

package dutree

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"golang.org/x/sys/unix"
)

// Stream scans root and writes it to w in ncdu's format as it goes, as
// `ncdu -o` does: depth first, one directory listed at a time, so that it
// holds the listings of the directories open from root down and no more,
// whatever the number of entries.
//
// Stopped by ctx, it still writes a whole, valid export: the directories
// open then end with the entries they listed, and each subdirectory not
// yet read is written empty, marked read_error (which ncdu and gdu show)
// and unfinished (which Read makes Unfinished, the tree Incomplete);
// complete is false then.
func Stream(ctx context.Context, w io.Writer, root string, so StreamOptions, wo WriteOptions) (complete bool, err error) {
	s := &streamer{ctx: ctx, o: so, e: newEncoder(w, wo)}
	return s.run(root)
}

// streamer is one Stream's walk: a level per directory open.
type streamer struct {
	ctx    context.Context
	o      StreamOptions
	e      *encoder
	levels []*streamDir // levels[:depth] open, the rest kept for their buffers
	depth  int

	held, peakHeld int // entries in the listings held, for the tests
}

// streamDir is a directory open in a Stream: its descriptor, its listing
// (names in its lister's buffer) and the next entry to write.
type streamDir struct {
	fd      int
	path    string
	dir     Dir // its device, for the encoder
	lister  frd.Lister
	entries []frd.Entry
	next    int
	failed  bool // an entry of it could not be stat'ed
}

func (s *streamer) run(root string) (bool, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return false, err
	}
	fd, err := openDirAt(unix.AT_FDCWD, root, 0)
	if err != nil {
		return false, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	lv, n, err := s.open(fd, root, abs)
	if err != nil {
		return false, err
	}
	s.e.header()
	s.e.raw("[")
	s.e.info(&n, ^lv.dir.Dev)
	for s.depth > 0 {
		lv := s.levels[s.depth-1]
		if lv.next == len(lv.entries) {
			s.e.raw("]")
			s.pop()
			continue
		}
		if s.ctx.Err() != nil {
			s.unwind()
			break
		}
		e := &lv.entries[lv.next]
		lv.next++
		s.entry(lv, e)
	}
	s.e.raw("]\n")
	if err := s.e.w.Flush(); err != nil {
		return false, err
	}
	return s.ctx.Err() == nil, nil
}

// open lists the directory fd, at path, pushes it, and returns its level
// and its entry (named name); an error is the root's alone.
func (s *streamer) open(fd int, path, name string) (*streamDir, Node, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, Node{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if s.depth == len(s.levels) {
		s.levels = append(s.levels, new(streamDir))
	}
	lv := s.levels[s.depth]
	s.depth++
	lv.fd, lv.path, lv.next, lv.failed = fd, path, 0, false
	lv.dir.Dev = dirfd.DevNum(st.Dev)
	lv.lister.ReuseNames = true
	lv.lister.Failed = func(err error) {
		lv.failed = true
		s.report(err)
	}
	n := statNode(name, &st)
	if s.e.o.Extended {
		n.Ext = Ext{Uid: st.Uid, Gid: st.Gid, Mode: st.Mode}
	}
	n.Dir = &lv.dir
	var err error
	lv.entries, err = lv.lister.AppendHandle(lv.entries[:0], uintptr(fd), path)
	if err != nil {
		n.Flags |= ReadError
		s.report(err)
	}
	if lv.failed {
		n.Flags |= ReadError
	}
	s.held += len(lv.entries)
	s.peakHeld = max(s.peakHeld, s.held)
	return lv, n, nil
}

func (s *streamer) pop() {
	lv := s.levels[s.depth-1]
	unix.Close(lv.fd)
	s.held -= len(lv.entries)
	clear(lv.entries) // its names are the lister's, reused
	lv.entries = lv.entries[:0]
	s.depth--
}

// entry writes e, an entry of lv: a file whole, a directory opened (its
// entries follow).
func (s *streamer) entry(lv *streamDir, e *frd.Entry) {
	path := childPath(lv.path, e.Name)
	if s.o.Exclude != nil && s.o.Exclude(path) {
		s.e.raw(",\n")
		s.e.info(&Node{Name: e.Name, Flags: Excluded, Nlink: 1}, lv.dir.Dev)
		return
	}
	if e.Type.IsDir() {
		s.subdir(lv, e, path)
		return
	}
	n := node(e, false)
	if s.e.o.Extended {
		n.Ext, _ = extAt(lv.fd, e.Name, false)
	}
	if !e.Type.IsRegular() {
		var st unix.Stat_t
		if err := unix.Fstatat(lv.fd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			n.Flags |= ReadError
			s.report(&fs.PathError{Op: "lstat", Path: path, Err: err})
		} else {
			n.Asize, n.Dsize, n.Ino, n.Mtime = st.Size, int64(st.Blocks)*512, uint64(st.Ino), int64(st.Mtim.Sec)
		}
	}
	s.e.raw(",\n")
	s.e.info(&n, lv.dir.Dev)
}

// subdir opens and lists the directory e of lv, and writes its entry: it
// is open then, its entries next; or, another file system's under -x or
// one that cannot be opened, whole.
func (s *streamer) subdir(lv *streamDir, e *frd.Entry, path string) {
	fd, err := openDirAt(lv.fd, e.Name, unix.O_NOFOLLOW)
	if err != nil {
		s.report(&fs.PathError{Op: "open", Path: path, Err: err})
		n := Node{Name: e.Name, Flags: ReadError, Nlink: 1, Dir: &Dir{Dev: lv.dir.Dev}}
		var st unix.Stat_t
		if unix.Fstatat(lv.fd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			n = statNode(e.Name, &st)
			n.Flags, n.Dir = ReadError, &Dir{Dev: dirfd.DevNum(st.Dev)}
		}
		s.e.raw(",\n[")
		s.e.info(&n, lv.dir.Dev)
		s.e.raw("]")
		return
	}
	var st unix.Stat_t
	if s.o.OneFileSystem && unix.Fstat(fd, &st) == nil && dirfd.DevNum(st.Dev) != lv.dir.Dev {
		unix.Close(fd)
		s.e.raw(",\n")
		s.e.info(&Node{Name: e.Name, Flags: OtherFS, Ino: uint64(st.Ino), Nlink: 1}, lv.dir.Dev)
		return
	}
	_, n, err := s.open(fd, path, e.Name)
	if err != nil {
		s.report(err)
		return
	}
	s.e.raw(",\n[")
	s.e.info(&n, lv.dir.Dev)
}

// unwind ends a stopped Stream: each directory open writes the entries it
// listed, a subdirectory empty and marked unfinished, and closes.
func (s *streamer) unwind() {
	for s.depth > 0 {
		lv := s.levels[s.depth-1]
		for ; lv.next < len(lv.entries); lv.next++ {
			e := &lv.entries[lv.next]
			if !e.Type.IsDir() || s.o.Exclude != nil && s.o.Exclude(childPath(lv.path, e.Name)) {
				s.entry(lv, e)
				continue
			}
			s.e.raw(",\n[")
			s.e.info(&Node{Name: e.Name, Flags: Unfinished, Nlink: 1, Dir: &lv.dir}, lv.dir.Dev)
			s.e.raw("]")
		}
		s.e.raw("]")
		s.pop()
	}
}

func (s *streamer) report(err error) {
	if s.o.OnError == nil {
		return
	}
	path := ""
	if pe, ok := err.(*os.PathError); ok {
		path = pe.Path
	}
	s.o.OnError(Error{Path: path, Err: err})
}

// statNode is the entry named name that st describes.
func statNode(name string, st *unix.Stat_t) Node {
	return Node{Name: name, Asize: st.Size, Dsize: int64(st.Blocks) * 512, Ino: uint64(st.Ino), Mtime: int64(st.Mtim.Sec), Nlink: uint32(st.Nlink)}
}

func openDirAt(dir int, name string, flags int) (int, error) {
	return retry(func() (int, error) {
		return unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|flags, 0)
	})
}
