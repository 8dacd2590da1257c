//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package dirfd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"golang.org/x/sys/unix"
)

const openFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC

// Retry calls fn until it returns anything but EINTR: a slow file system
// (NFS, FUSE) may interrupt a system call with a signal.
func Retry[T any](fn func() (T, error)) (T, error) {
	for {
		v, err := fn()
		if err != unix.EINTR {
			return v, err
		}
	}
}

// Open opens the directory path, following a symbolic link as open(2)
// does: the root of a walk, named by its caller.
func Open(path string) (int, error) {
	fd, err := Retry(func() (int, error) { return unix.Open(path, openFlags, 0) })
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// OpenAt opens the directory name in the open directory parent, never
// through a symbolic link unless follow is set. path names it in errors.
func OpenAt(parent int, name string, follow bool, path string) (int, error) {
	fd, err := openAt(parent, name, follow)
	if err != nil {
		return -1, &os.PathError{Op: "openat", Path: path, Err: err}
	}
	return fd, nil
}

// Close closes fd unless it is negative.
func Close(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// Node is a directory of a tree walked by descriptor: where it is in its
// parent and, while it is kept in a Set, its open descriptor. The zero
// Node has no descriptor.
type Node struct {
	Parent *Node
	Name   string
	Follow bool // a symbolic link followed to a directory: opened following it

	mu        sync.Mutex // guards fdPlusOne against a Close while a child opens from it
	fdPlusOne int        // the descriptor plus one, so that the zero Node has none

	// dev and ino are the directory's once it has been opened (Identify),
	// so that opening it again through its ancestors' names finds that
	// directory or fails: another directory renamed in its place on the
	// way is never entered.
	dev, ino uint64

	prev, next *Node // in the Set that keeps it
	set        *Set
	forced     bool // kept outside the budget
}

// ErrReplaced is the error of opening again a directory whose name, or an
// ancestor's on the way, now holds another directory than it did.
var ErrReplaced = errors.New("not the directory found there before (replaced since)")

// Identify records n's device and inode, once it has been opened, for
// every later open of n or through it to check.
func (n *Node) Identify(dev, ino uint64) { n.dev, n.ino = dev, ino }

// verify passes on fd, open as n (or err), if n is the directory it was
// identified as; else it closes fd and fails with ErrReplaced.
func (n *Node) verify(fd int, err error) (int, error) {
	if err != nil || n.ino == 0 {
		return fd, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		Close(fd)
		return -1, err
	}
	if DevNum(st.Dev) != n.dev || uint64(st.Ino) != n.ino {
		Close(fd)
		return -1, ErrReplaced
	}
	return fd, nil
}

// Open opens n's directory: relative to the nearest ancestor whose
// descriptor is kept, one OpenAt per level below it, so that no symbolic
// link swapped into the tree can lead out of it, and each directory on
// the way that was opened before is checked to be the same (Identify).
// path names n in errors.
// An ancestor's descriptor is used under its lock, so a Close of it waits.
// The walk keeps its root, so an ancestor with a descriptor exists;
// without one Open fails with EBADF.
func (n *Node) Open(path string) (int, error) { return n.open(path, nil) }

// open is Open, keeping in keep (if not nil) each directory opened on the
// way, where its budget allows.
func (n *Node) open(path string, keep *Set) (int, error) {
	if p := n.Parent; p != nil {
		// The parent kept, as it mostly is: one openat.
		p.mu.Lock()
		if p.fdPlusOne != 0 {
			fd, err := n.verify(openAt(p.fdPlusOne-1, n.Name, n.Follow))
			p.mu.Unlock()
			if err != nil {
				return -1, &os.PathError{Op: "openat", Path: path, Err: err}
			}
			return fd, nil
		}
		p.mu.Unlock()
	}
	var chain []*Node // n and the ancestors below the open one, deepest first
	for a := n; a.Parent != nil; a = a.Parent {
		chain = append(chain, a)
		p := a.Parent
		p.mu.Lock()
		if p.fdPlusOne == 0 {
			p.mu.Unlock()
			continue
		}
		i := len(chain) - 1
		fd, err := a.verify(openAt(p.fdPlusOne-1, a.Name, a.Follow))
		p.mu.Unlock()
		for ; err == nil && i > 0; i-- {
			var next int
			next, err = chain[i-1].verify(openAt(fd, chain[i-1].Name, chain[i-1].Follow))
			if keep == nil || !keep.Keep(chain[i], fd, false) {
				Close(fd)
			}
			fd = next
		}
		if err != nil {
			return -1, &os.PathError{Op: "openat", Path: ancestorPath(path, i), Err: err}
		}
		return fd, nil
	}
	return -1, &os.PathError{Op: "openat", Path: path, Err: unix.EBADF}
}

// Dup returns a descriptor of n's own: a duplicate of its kept one, or n
// opened again as Open does. The caller closes it.
func (n *Node) Dup(path string) (int, error) {
	n.mu.Lock()
	if n.fdPlusOne != 0 {
		fd, err := Retry(func() (int, error) { return unix.FcntlInt(uintptr(n.fdPlusOne-1), unix.F_DUPFD_CLOEXEC, 0) })
		n.mu.Unlock()
		if err != nil {
			return -1, &os.PathError{Op: "dup", Path: path, Err: err}
		}
		return fd, nil
	}
	n.mu.Unlock()
	return n.Open(path)
}

// Moved reports whether n's name in its parent no longer leads to the
// directory (dev, ino) it was when opened: it was renamed or removed. The
// parent is its kept descriptor, or found again as Open finds it; when
// that fails or finds another directory than the parent's (pdev, pino),
// an ancestor moved, not n. An error other than "not there" (EACCES) is
// no sign of a move.
func (n *Node) Moved(path string, dev, ino, pdev, pino uint64) bool {
	moved, up := n.MovedUp(-1, path, dev, ino, pdev, pino)
	Close(up)
	return moved
}

// MovedUp is Moved for n open as self (or -1): its parent, when not kept,
// is self's "..", if that is the parent (pdev, pino), rather than found
// again by names from the nearest kept ancestor, which at every level of
// a deep chain costs a walk down from the top. It also returns the
// parent's descriptor, if it opened one, for its caller to go on up from
// and close; else -1.
func (n *Node) MovedUp(self int, path string, dev, ino, pdev, pino uint64) (moved bool, up int) {
	p := n.Parent
	p.mu.Lock()
	if p.fdPlusOne != 0 {
		defer p.mu.Unlock()
		return n.movedIn(p.fdPlusOne-1, dev, ino), -1
	}
	p.mu.Unlock()
	if self >= 0 {
		if up := Up(self, pdev, pino); up >= 0 {
			return n.movedIn(up, dev, ino), up
		}
	}
	pfd, err := p.Open(filepath.Dir(path))
	if err != nil {
		return false, -1
	}
	if e, err := Fstat(pfd); err != nil || e.Device != pdev || e.FileID != pino {
		Close(pfd)
		return false, -1
	}
	return n.movedIn(pfd, dev, ino), pfd
}

// Up opens the directory above the open directory fd, its "..", and
// returns it if it is the directory (dev, ino), else -1: going back up a
// walked tree as fts does, checked, rather than down again from the top.
func Up(fd int, dev, ino uint64) int {
	up, err := openAt(fd, "..", false)
	if err != nil {
		return -1
	}
	var st unix.Stat_t
	if _, err := Retry(func() (int, error) { return 0, unix.Fstat(up, &st) }); err != nil || DevNum(st.Dev) != dev || uint64(st.Ino) != ino {
		Close(up)
		return -1
	}
	return up
}

func (n *Node) movedIn(parent int, dev, ino uint64) bool {
	var st unix.Stat_t
	flags := unix.AT_SYMLINK_NOFOLLOW
	if n.Follow {
		flags = 0
	}
	_, err := Retry(func() (int, error) { return 0, unix.Fstatat(parent, n.Name, &st, flags) })
	if err != nil {
		return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
	}
	return DevNum(st.Dev) != dev || uint64(st.Ino) != ino
}

func openAt(parent int, name string, follow bool) (int, error) {
	flags := openFlags | unix.O_NOFOLLOW
	if follow {
		flags = openFlags
	}
	return Retry(func() (int, error) { return unix.Openat(parent, name, flags, 0) })
}

// ancestorPath is the path up levels above path.
func ancestorPath(path string, up int) string {
	for ; up > 0; up-- {
		path = filepath.Dir(path)
	}
	return path
}

// Set keeps the descriptors of a walk's directories open between the
// listing of one and the opens of its subdirectories, within a budget, and
// closes whatever it still holds when the walk ends.
type Set struct {
	mu         sync.Mutex
	head, tail *Node // newest first
	n          int   // kept within the budget: not forced
	max        int
	evict      bool
}

// NewSet returns a Set that keeps at most max descriptors besides the ones
// forced on it, and refuses more.
func NewSet(max int) *Set { return &Set{max: max} }

// NewEvictingSet returns a Set that keeps at most max descriptors besides
// the ones forced on it, closing the one kept longest to make room for a
// new one: for a walk that comes back up the tree (a clone finishes each
// directory after its subtree), where the deepest directories are the
// ones about to be used.
func NewEvictingSet(max int) *Set { return &Set{max: max, evict: true} }

// Keep keeps fd as n's descriptor when the budget allows (making room if
// the Set evicts), or when force is set (a walk's root), and reports
// whether it did; when it did not, fd is still the caller's to close.
func (s *Set) Keep(n *Node, fd int, force bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n.set == s {
		return false // kept meanwhile, by another goroutine's Open
	}
	if !force && s.n >= s.max && !(s.evict && s.evictOne()) {
		return false
	}
	if !force {
		s.n++
	}
	n.prev, n.next, n.set, n.forced = nil, s.head, s, force
	if s.head != nil {
		s.head.prev = n
	} else {
		s.tail = n
	}
	s.head = n
	n.mu.Lock()
	n.fdPlusOne = fd + 1
	n.mu.Unlock()
	return true
}

// evictOne closes the oldest descriptor kept within the budget, waiting
// for a child being opened from it. s.mu is held. The node leaves the list
// before its descriptor is cleared: whoever sees it without one (Kept) may
// reuse its memory at once.
func (s *Set) evictOne() bool {
	for v := s.tail; v != nil; v = v.prev {
		if v.forced {
			continue
		}
		s.unlink(v)
		s.n--
		v.mu.Lock()
		if v.fdPlusOne != 0 {
			unix.Close(v.fdPlusOne - 1)
			v.fdPlusOne = 0
		}
		v.mu.Unlock()
		return true
	}
	return false
}

// Kept reports whether n has a descriptor kept.
func (n *Node) Kept() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.fdPlusOne != 0
}

// Fd is n's kept descriptor, or -1. Only the goroutine that will Close it
// may use it, and only in a Set that does not evict.
func (n *Node) Fd() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.fdPlusOne - 1
}

// Take hands n's kept descriptor, if it has one, to the caller, who closes
// it, and returns its place in the budget; -1 if n has none.
func (s *Set) Take(n *Node) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n.mu.Lock()
	fd := n.fdPlusOne - 1
	n.fdPlusOne = 0
	n.mu.Unlock()
	if n.set == s {
		if !n.forced {
			s.n--
		}
		s.unlink(n)
	}
	return fd
}

// Close closes n's kept descriptor, if it has one, and returns its place
// in the budget. It waits for a child being opened from it.
func (s *Set) Close(n *Node) {
	if fd := s.Take(n); fd >= 0 {
		unix.Close(fd)
	}
}

// nearReach is how many levels up from a kept directory OpenNear looks
// for the parent of the one it opens, at most: no more than the open from
// the kept directory above would cost.
const nearReach = 1024

// OpenNear opens n as Node.Open does, but when n's parent is not kept and
// a directory below the parent is, nearer than the nearest kept one above
// it, it goes up from there through "..", each step checked to reach the
// directory recorded (Identify), and keeps the parent for its other
// subdirectories. Workers that went on down a chain while others still
// open what was left at each level, past the budget, then find a parent
// in a step or two rather than one open per level above it. n's parent
// must have been opened (identified) and must not be finished before the
// open returns: a walk opens n while it counts n among the parent's
// subdirectories to open.
func (s *Set) OpenNear(n *Node, path string) (int, error) {
	p := n.Parent
	if p == nil || p.Kept() {
		return n.Open(path)
	}
	above := 1
	for a := p.Parent; a != nil && !a.Kept() && above < nearReach; a = a.Parent {
		above++
	}
	pfd := s.upToFrom(p, above)
	if pfd < 0 {
		return n.Open(path)
	}
	fd, err := n.verify(openAt(pfd, n.Name, n.Follow))
	if !s.Keep(p, pfd, false) {
		Close(pfd)
	}
	if err != nil {
		return -1, &os.PathError{Op: "openat", Path: path, Err: err}
	}
	return fd, nil
}

// upToFrom opens p from a kept directory below it, fewer than within
// levels down, through ".."; -1 if there is none or a step does not reach
// the directory it should.
func (s *Set) upToFrom(p *Node, within int) int {
	s.mu.Lock()
	var from *Node
	for k := s.head; k != nil; k = k.next {
		d := 0
		for a := k; a != nil && d < within; a = a.Parent {
			if a == p {
				from, within = k, d
				break
			}
			d++
		}
	}
	if from == nil || within == 0 {
		s.mu.Unlock()
		return -1
	}
	// The identities on the way, read while from, kept, holds the
	// directories between it and p unfinished.
	ids := make([][2]uint64, 0, within)
	for a := from.Parent; ; a = a.Parent {
		ids = append(ids, [2]uint64{a.dev, a.ino})
		if a == p {
			break
		}
	}
	from.mu.Lock()
	fd := Up(from.fdPlusOne-1, ids[0][0], ids[0][1])
	from.mu.Unlock()
	s.mu.Unlock()
	for _, id := range ids[1:] {
		if fd < 0 {
			return -1
		}
		next := Up(fd, id[0], id[1])
		Close(fd)
		fd = next
	}
	return fd
}

// Open opens n from its nearest kept ancestor as Node.Open does, keeping
// each directory opened on the way (not n) where the budget allows, so
// that the next directory found again near it costs one openat.
func (s *Set) Open(n *Node, path string) (int, error) { return n.open(path, s) }

func (s *Set) unlink(n *Node) {
	if n.set != s {
		return
	}
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		s.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		s.tail = n.prev
	}
	n.prev, n.next, n.set = nil, nil, nil
}

// CloseAll closes every descriptor the Set still keeps: what a walk that
// stopped early left.
func (s *Set) CloseAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := s.head; n != nil; {
		next := n.next
		n.mu.Lock()
		if n.fdPlusOne != 0 {
			unix.Close(n.fdPlusOne - 1)
			n.fdPlusOne = 0
		}
		n.mu.Unlock()
		n.prev, n.next, n.set = nil, nil, nil
		n = next
	}
	s.head, s.tail, s.n = nil, nil, 0
}

// ModeType maps a stat's S_IFMT bits to fs.FileMode type bits.
func ModeType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// Entry is st as an frd.Entry with every field filled, whatever its type,
// as frd fills a regular file's.
func Entry(st *unix.Stat_t) frd.Entry {
	return frd.Entry{
		Type:            ModeType(uint32(st.Mode)),
		Size:            st.Size,
		ModTimeNanos:    unixtime.Nanos(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)),
		ChangeTimeNanos: unixtime.Nanos(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)),
		FileID:          uint64(st.Ino),
		Allocated:       int64(st.Blocks) * 512,
		Links:           uint64(st.Nlink),
		Device:          DevNum(st.Dev),
	}
}

// DevNum is a stat's st_dev as frd reports it: a 32-bit dev_t (macOS,
// OpenBSD) is not sign-extended.
func DevNum[T int32 | uint32 | uint64](dev T) uint64 {
	switch v := any(dev).(type) {
	case int32:
		return uint64(uint32(v))
	case uint32:
		return uint64(v)
	}
	return uint64(dev)
}

// Fstat is the open directory fd's own metadata, with its device and
// inode.
func Fstat(fd int) (frd.Entry, error) {
	var st unix.Stat_t
	if _, err := Retry(func() (int, error) { return 0, unix.Fstat(fd, &st) }); err != nil {
		return frd.Entry{}, &os.PathError{Op: "fstat", Err: err}
	}
	return Entry(&st), nil
}

// Fstatat stats name in the open directory fd, following a final symbolic
// link only when follow is set. dir, fd's path, and name name it in
// errors, joined only then: a path built for each entry would cost, deep
// in a tree, a path's length for each of its entries.
func Fstatat(fd int, dir, name string, follow bool) (unix.Stat_t, error) {
	flags := unix.AT_SYMLINK_NOFOLLOW
	if follow {
		flags = 0
	}
	var st unix.Stat_t
	if _, err := Retry(func() (int, error) { return 0, unix.Fstatat(fd, name, &st, flags) }); err != nil {
		return st, &os.PathError{Op: "fstatat", Path: Join(dir, name), Err: err}
	}
	return st, nil
}
