package frd

import (
	"encoding/binary"
	"io/fs"
	"os"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/unixtime"
	"golang.org/x/sys/unix"
)

// sysLister is the Linux state a Lister keeps between calls.
type sysLister struct {
	buf  []byte   // what getdents64 fills, and wordSlack bytes past it
	recs []dirent // the parsed records of one read
	stx  unix.Statx_t
	name []byte // a NUL-terminated name for Stat

	ranSince time.Time // when the goroutine last yielded, for yield

	fastStats // whether a stat may go around the scheduler
}

// yieldEvery is how long a listing runs before it lets the scheduler run.
//
// A listing is a long run of short system calls that never enters the
// scheduler. Go's sysmon takes a goroutine that has not been rescheduled
// for 10 ms as running too long, and when every P is busy it then takes the
// P away whenever it finds the goroutine in a system call, and checks again
// every 20 µs. Two goroutines listing at once on a 2-core machine thus
// lost a third of their speed to context switches (BENCHMARKS.md). A yield
// every 2 ms keeps sysmon quiet and costs about 100 ns.
const yieldEvery = 2 * time.Millisecond

// yield lets the scheduler run if the listing has run for yieldEvery since
// it last did.
func (s *sysLister) yield() {
	now := time.Now()
	if s.ranSince.IsZero() {
		s.ranSince = now
	} else if now.Sub(s.ranSince) >= yieldEvery {
		runtime.Gosched()
		s.ranSince = now
	}
	s.startWindow(now)
}

// testHookAfterRead, when set by a test, runs between a read and its stats.
var testHookAfterRead func()

// statxFlags: never follow a symlink, never trigger an automount (as lstat
// does not), and take what the kernel has cached rather than asking a
// network file system's server again.
const statxFlags = unix.AT_SYMLINK_NOFOLLOW | unix.AT_NO_AUTOMOUNT | unix.AT_STATX_DONT_SYNC

// statxMask asks for the fields an Entry carries; the device comes with
// every answer.
const statxMask = unix.STATX_TYPE | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_CTIME |
	unix.STATX_INO | unix.STATX_NLINK | unix.STATX_BLOCKS

// list reads the directory fd to its end, appending to dst. dirName is used
// only in errors.
func (l *Lister) list(dst []Entry, fd int, dirName string) ([]Entry, error) {
	l.resetNames()
	l.sys.beginDir(l.FastStats)
	for {
		var done bool
		var err error
		if dst, done, _, err = l.read(dst, fd, dirName); done || err != nil {
			return dst, err
		}
	}
}

// appendPart is AppendPart on Linux: one getdents64, or more while they
// return no entry ("." and "..") or leave most of the buffer empty, so
// that a small directory is one part, found done, and a large one a part
// per full buffer; a file system that answers in small pieces still gets
// parts of at most about partMax entries.
func (l *Lister) appendPart(dst []Entry, fd uintptr, name string) ([]Entry, bool, error) {
	l.resetNames()
	l.sys.beginDir(l.FastStats)
	start := len(dst)
	for {
		var done, full bool
		var err error
		dst, done, full, err = l.read(dst, int(fd), name)
		if err != nil || done || (full || len(dst)-start >= partMax) && len(dst) > start {
			return dst, done, err
		}
	}
}

// partMax is the entries from which a part ends whatever the buffer held.
const partMax = 4096

// read makes one getdents64 call on fd and appends its entries; done is
// set at the directory's end, full when the call filled most of the buffer.
func (l *Lister) read(dst []Entry, fd int, dirName string) (_ []Entry, done, full bool, _ error) {
	s := &l.sys
	if s.buf == nil {
		s.buf = make([]byte, bufSize+wordSlack)
	}
	var n int
	err := ignoringEINTR(func() (err error) {
		n, err = unix.Getdents(fd, s.buf[:bufSize])
		return err
	})
	if err != nil {
		return dst, false, false, &os.PathError{Op: "getdents64", Path: dirName, Err: err}
	}
	if n <= 0 {
		return dst, true, false, nil
	}
	s.yield()
	buf := s.buf[:n]
	var namesLen int
	s.recs, namesLen, err = parseDirent64(s.recs[:0], buf)
	if err != nil {
		return dst, false, false, &os.PathError{Op: "getdents64", Path: dirName, Err: err}
	}
	full = n > bufSize/2
	if len(s.recs) == 0 {
		return dst, false, full, nil
	}
	if testHookAfterRead != nil {
		testHookAfterRead()
	}

	// The names of one read share one allocation, made to their length and
	// a word more: each Entry's name points into it as it is copied.
	names := l.nameSpace(namesLen + wordSlack)[:namesLen+wordSlack]
	dst = grow(dst, len(s.recs))
	start := len(dst)
	dst = dst[:start+len(s.recs)]
	if unknown := placeEntries(dst[start:], names, s.buf, s.recs); l.Names && !unknown {
		return dst, false, full, nil
	}
	dst, err = l.statEntries(dst, start, fd, dirName)
	return dst, false, full, err
}

// placeEntries sets out[i] to recs[i]'s name, copied to names, and the
// type its d_type tells (regular for DT_UNKNOWN, until a stat says), and
// reports whether a record was DT_UNKNOWN. It is a loop of its own, with
// little else live, because it is most of a names-only listing's work.
func placeEntries(out []Entry, names, buf []byte, recs []dirent) (unknown bool) {
	out = out[:len(recs)]
	at := 0
	for i, r := range recs {
		n := int(r.nameLen)
		copyName(names[at:], buf[r.nameOff:], n)
		out[i] = Entry{Name: unsafe.String(&names[at], n), Type: direntModes[r.typ]}
		unknown = unknown || r.typ == dtUnknown
		at += n
	}
	return unknown
}

// wordSlack is the room past the end of a buffer that copyName may write
// or read.
const wordSlack = 15

// copyName copies the first n bytes of src to dst a word at a time, the
// first two always, so it may read and write up to wordSlack bytes past
// them; both must have room for them, and for 16 bytes at least. It calls
// nothing: names are short, and a call to memmove, with what the caller
// must save around it, costs more than the copy.
func copyName(dst, src []byte, n int) {
	d, s := dst[:16], src[:16]
	binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(s))
	binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:]))
	for i := 16; i < n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:i+8], binary.LittleEndian.Uint64(src[i:i+8]))
	}
}

// direntModes is direntType's mode for every d_type, DT_UNKNOWN's 0.
var direntModes = func() (m [256]fs.FileMode) {
	for i := range m {
		m[i], _ = direntType(uint8(i))
	}
	return m
}()

// statEntries stats the entries from start that the read placed and a
// stat must complete: regular files unless Names is set, and those whose
// record had no type. An entry whose stat fails is left out, the rest
// moving down in their order.
func (l *Lister) statEntries(dst []Entry, start, fd int, dirName string) ([]Entry, error) {
	s := &l.sys
	mask := statxMask
	if l.Names {
		mask = unix.STATX_TYPE
	}
	w := start
	for i, r := range s.recs {
		e := &dst[start+i]
		if r.typ == dtUnknown || r.typ == dtReg && !l.Names {
			// The name is NUL-terminated in the buffer, so statx takes
			// it from there without a copy.
			var err error
			if l.FastStats {
				err = s.fastStatx(fd, &s.buf[r.nameOff], mask)
			} else {
				err = plainStatx(fd, &s.buf[r.nameOff], mask, &s.stx)
			}
			if err != nil {
				if err == unix.ENOENT {
					l.vanish(e.Name) // removed since the read
					continue
				}
				if perr := (&os.PathError{Op: "statx", Path: joinName(dirName, e.Name), Err: err}); !l.fail(perr) {
					clear(dst[w:]) // nothing of this read left to hold its names
					return dst[:w], perr
				}
				continue
			}
			if e.Type = modeType(uint32(s.stx.Mode)); e.Type == 0 && !l.Names {
				fillStatx(e, &s.stx)
			}
		}
		if w != start+i {
			dst[w] = *e
		}
		w++
	}
	clear(dst[w:])
	return dst[:w], nil
}

func (l *Lister) stat(entries []Entry, fd uintptr, dir string) ([]Entry, error) {
	s := &l.sys
	if s.beginDir(l.FastStats); l.FastStats {
		s.startWindow(time.Now()) // no read here to start it
	}
	kept := entries[:0]
	for _, e := range entries {
		if !e.Type.IsRegular() {
			kept = append(kept, e)
			continue
		}
		// statx wants the name NUL-terminated: copy it into a kept buffer.
		s.name = append(append(s.name[:0], e.Name...), 0)
		err := s.statx(int(fd), &s.name[0], statxMask)
		if err == unix.ENOENT {
			l.vanish(e.Name)
			continue
		}
		if err != nil {
			if perr := (&os.PathError{Op: "statx", Path: joinName(dir, e.Name), Err: err}); !l.fail(perr) {
				return kept, perr
			}
			continue
		}
		e = Entry{Name: e.Name, Type: modeType(uint32(s.stx.Mode))}
		if e.Type == 0 {
			fillStatx(&e, &s.stx)
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// fillStatx copies a regular file's metadata from stx.
func fillStatx(e *Entry, stx *unix.Statx_t) {
	e.Size = int64(stx.Size)
	e.ModTimeNanos = unixtime.Nanos(stx.Mtime.Sec, int64(stx.Mtime.Nsec))
	e.ChangeTimeNanos = unixtime.Nanos(stx.Ctime.Sec, int64(stx.Ctime.Nsec))
	e.FileID = stx.Ino
	e.Allocated = int64(stx.Blocks) * 512
	e.Links = uint64(stx.Nlink)
	e.Device = unix.Mkdev(stx.Dev_major, stx.Dev_minor)
}

// noStatx is set once statx has answered ENOSYS (a kernel before 4.11) or
// EPERM (a seccomp filter older than statx, as older container runtimes
// had): every stat then goes through fstatat.
var noStatx atomic.Bool

// statxAt stats the NUL-terminated name relative to dirfd. It is
// unix.Statx without the copy of the name the string parameter costs;
// raw makes the call without telling the scheduler (see fastStats).
func statxAt(dirfd int, name *byte, mask int, stx *unix.Statx_t, raw bool) error {
	if !noStatx.Load() {
		var errno unix.Errno
		if raw {
			_, _, errno = unix.RawSyscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
				statxFlags, uintptr(mask), uintptr(unsafe.Pointer(stx)), 0)
		} else {
			_, _, errno = unix.Syscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
				statxFlags, uintptr(mask), uintptr(unsafe.Pointer(stx)), 0)
		}
		switch errno {
		case 0:
			return nil
		case unix.ENOSYS, unix.EPERM:
			noStatx.Store(true)
		default:
			return errno
		}
	}
	return fstatatInto(dirfd, name, stx)
}

// fstatatInto stats the NUL-terminated name relative to dirfd with
// fstatat, never following a link or triggering an automount, and puts
// what statx would have said into stx.
func fstatatInto(dirfd int, name *byte, stx *unix.Statx_t) error {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(name), n)) != 0 {
		n++
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, unsafe.String(name, n), &st, unix.AT_SYMLINK_NOFOLLOW|unix.AT_NO_AUTOMOUNT); err != nil {
		return err
	}
	*stx = unix.Statx_t{
		Mask:      unix.STATX_BASIC_STATS,
		Mode:      uint16(st.Mode),
		Nlink:     uint32(st.Nlink),
		Ino:       uint64(st.Ino),
		Size:      uint64(st.Size),
		Blocks:    uint64(st.Blocks),
		Mtime:     unix.StatxTimestamp{Sec: int64(st.Mtim.Sec), Nsec: uint32(st.Mtim.Nsec)},
		Ctime:     unix.StatxTimestamp{Sec: int64(st.Ctim.Sec), Nsec: uint32(st.Ctim.Nsec)},
		Dev_major: unix.Major(uint64(st.Dev)),
		Dev_minor: unix.Minor(uint64(st.Dev)),
	}
	return nil
}
