//go:build linux

package dutree

import (
	"context"
	"errors"
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
	levels []*streamDir // levels[:depth] open, the rest kept for their storage
	depth  int

	// One lister for every level, its names not reused: each listing's
	// names are its own, the read buffer is shared.
	lister frd.Lister
	// path is the deepest open directory's path; each level's is the
	// prefix of its plen bytes. Built for a message or --exclude only: a
	// path per level would cost the square of the depth.
	path []byte
	open int // levels with a descriptor open

	held, peakHeld int // entries in the listings held, for the tests
}

// streamOpen is the most directory descriptors a Stream keeps open: deeper,
// the ones nearest the root are closed, and found again through ".." from
// the level below once it is done, checked to be the directory listed.
const streamOpen = 16

// streamDir is a directory open in a Stream: its descriptor (-1 while
// closed for streamOpen), its listing and the next entry to write.
type streamDir struct {
	fd      int
	name    string // its name in the level above
	plen    int    // its path's length in streamer.path
	ino     uint64 // with dir.Dev, what finding it again checks
	dir     Dir    // its device, for the encoder
	entries []frd.Entry
	next    int
	failed  bool // an entry of it could not be stat'ed
	lost    bool // not found again: its subdirectories are not read
}

// errLost is a directory that was moved or replaced while its
// subdirectories were exported: the rest of them are not read.
var errLost = errors.New("moved or replaced during the export: the rest of it not read")

func (s *streamer) run(root string) (bool, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return false, err
	}
	fd, err := openDirAt(unix.AT_FDCWD, root, 0)
	if err != nil {
		return false, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	s.path = append(s.path[:0], root...)
	s.lister.Failed = func(err error) {
		s.levels[s.depth-1].failed = true
		s.report(s.fixPath(err))
	}
	lv, n, err := s.push(fd, abs)
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

// pathOf is the path of the entry name of lv ("" for lv's own), as a
// string of its own: for a message, or --exclude.
func (s *streamer) pathOf(lv *streamDir, name string) string {
	dir := string(s.path[:lv.plen])
	if name == "" {
		return dir
	}
	return childPath(dir, name)
}

// fixPath names, in an error of the lister's (which lists with no path),
// the directory on top, or its entry.
func (s *streamer) fixPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		pe.Path = s.pathOf(s.levels[s.depth-1], pe.Path)
	}
	return err
}

// push lists the directory fd, whose path is in s.path, pushes it, and
// returns its level and its entry (named name); an error is the root's
// alone.
func (s *streamer) push(fd int, name string) (*streamDir, Node, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, Node{}, &fs.PathError{Op: "stat", Path: string(s.path), Err: err}
	}
	if s.depth == len(s.levels) {
		s.levels = append(s.levels, new(streamDir))
	}
	lv := s.levels[s.depth]
	s.depth++
	lv.fd, lv.name, lv.plen, lv.next, lv.failed, lv.lost = fd, name, len(s.path), 0, false, false
	lv.dir.Dev, lv.ino = dirfd.DevNum(st.Dev), uint64(st.Ino)
	s.open++
	for s.open > streamOpen && s.closeOne() {
	}
	n := statNode(name, &st)
	if s.e.o.Extended {
		n.Ext = Ext{Uid: st.Uid, Gid: st.Gid, Mode: st.Mode}
	}
	n.Dir = &lv.dir
	var err error
	lv.entries, err = s.lister.AppendHandle(lv.entries[:0], uintptr(fd), "")
	if err != nil {
		n.Flags |= ReadError
		s.report(s.fixPath(err))
	}
	if lv.failed {
		n.Flags |= ReadError
	}
	s.held += len(lv.entries)
	s.peakHeld = max(s.peakHeld, s.held)
	return lv, n, nil
}

// closeOne closes the open level nearest the root, but for the root
// (whence the others are found again) and the deepest; false when there
// is none.
func (s *streamer) closeOne() bool {
	for _, lv := range s.levels[1 : s.depth-1] {
		if lv.fd >= 0 {
			unix.Close(lv.fd)
			lv.fd = -1
			s.open--
			return true
		}
	}
	return false
}

// pop closes the level on top, finding the one below it again if it was
// closed: through "..", or, if that is another directory (the top one
// moved), by names from the nearest level open, each checked to be the
// directory listed.
func (s *streamer) pop() {
	lv := s.levels[s.depth-1]
	if s.depth > 1 {
		if up := s.levels[s.depth-2]; up.fd < 0 && !up.lost {
			if up.fd = dirfd.Up(lv.fd, up.dir.Dev, up.ino); up.fd < 0 {
				up.fd = s.refind(s.depth - 2)
			}
			if up.fd >= 0 {
				s.open++
			} else {
				up.lost = true
				s.report(&fs.PathError{Op: "open", Path: s.pathOf(up, ""), Err: errLost})
			}
		}
	}
	if lv.fd >= 0 {
		unix.Close(lv.fd)
		s.open--
	}
	s.held -= len(lv.entries)
	clear(lv.entries) // its names go
	lv.entries = lv.entries[:0]
	s.depth--
	if s.depth > 0 {
		s.path = s.path[:s.levels[s.depth-1].plen]
	}
}

// refind opens level k again by names from the nearest level open above
// it (the root's always is), each directory on the way checked to be the
// one listed; -1 if one is not.
func (s *streamer) refind(k int) int {
	i := k
	for i > 0 && s.levels[i].fd < 0 {
		i--
	}
	fd, own := s.levels[i].fd, false
	for _, lv := range s.levels[i+1 : k+1] {
		next, err := openDirAt(fd, lv.name, unix.O_NOFOLLOW)
		if own {
			unix.Close(fd)
		}
		var st unix.Stat_t
		if err == nil && (unix.Fstat(next, &st) != nil || dirfd.DevNum(st.Dev) != lv.dir.Dev || uint64(st.Ino) != lv.ino) {
			unix.Close(next)
			err = errLost
		}
		if err != nil {
			return -1
		}
		fd, own = next, true
	}
	return fd
}

// entry writes e, an entry of lv: a file whole, a directory opened (its
// entries follow).
func (s *streamer) entry(lv *streamDir, e *frd.Entry) {
	if s.o.Exclude != nil && s.o.Exclude(s.pathOf(lv, e.Name)) {
		s.e.raw(",\n")
		s.e.info(&Node{Name: e.Name, Flags: Excluded, Nlink: 1}, lv.dir.Dev)
		return
	}
	if e.Type.IsDir() {
		s.subdir(lv, e)
		return
	}
	n := node(e, false)
	if s.e.o.Extended && !lv.lost {
		n.Ext, _ = extAt(lv.fd, e.Name, false)
	}
	if !e.Type.IsRegular() {
		var st unix.Stat_t
		err := errLost
		if !lv.lost {
			err = unix.Fstatat(lv.fd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		if err != nil {
			n.Flags |= ReadError
			s.report(&fs.PathError{Op: "lstat", Path: s.pathOf(lv, e.Name), Err: err})
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
func (s *streamer) subdir(lv *streamDir, e *frd.Entry) {
	fd, err := -1, error(errLost)
	if !lv.lost {
		fd, err = openDirAt(lv.fd, e.Name, unix.O_NOFOLLOW)
	}
	if err != nil {
		var st unix.Stat_t
		statted := !lv.lost && unix.Fstatat(lv.fd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil
		if statted && s.o.OneFileSystem && dirfd.DevNum(st.Dev) != lv.dir.Dev {
			// A mount closed to the user: another file system's all
			// the same, as ncdu -x and du -x see it, by its stat.
			s.e.raw(",\n")
			s.e.info(&Node{Name: e.Name, Flags: OtherFS, Ino: uint64(st.Ino), Nlink: 1}, lv.dir.Dev)
			return
		}
		s.report(&fs.PathError{Op: "open", Path: s.pathOf(lv, e.Name), Err: err})
		n := Node{Name: e.Name, Flags: ReadError, Nlink: 1, Dir: &Dir{Dev: lv.dir.Dev}}
		if statted {
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
	s.path = s.path[:lv.plen]
	if len(s.path) == 0 || s.path[len(s.path)-1] != '/' {
		s.path = append(s.path, '/')
	}
	s.path = append(s.path, e.Name...)
	_, n, err := s.push(fd, e.Name)
	if err != nil {
		s.path = s.path[:lv.plen]
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
			if !e.Type.IsDir() || s.o.Exclude != nil && s.o.Exclude(s.pathOf(lv, e.Name)) {
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
