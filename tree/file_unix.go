//go:build linux || darwin

package tree

import (
	"context"
	"errors"
	"os"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// file makes at name in the destination directory p, open as dstDir, the
// regular file srcName of srcDir, by the clone's method. p is nil for a
// lone file given as the source.
func (c *cloner) file(srcDir int, srcName string, p *dstDir, dstDir int, name string, to where) error {
	c.mu.Lock()
	method := c.method
	c.mu.Unlock()
	if method == Hardlink {
		if done, err := c.link(srcDir, srcName, dstDir, name, to); done || err != nil {
			return err
		}
		method = Copy // a link refused under Auto
	}
	in, st, err := openSource(srcDir, srcName, to)
	if err == nil && testHookOpened != nil {
		testHookOpened(in)
	}
	if err != nil {
		if method == Auto && errors.Is(err, unix.EACCES) {
			return c.linkUnreadable(srcDir, srcName, dstDir, name, to, err)
		}
		return err
	}
	defer unix.Close(in)
	make := func(reflink bool) error {
		if p != nil && st.Nlink > 1 && !c.opts.NoHardLinks {
			return c.copyLinked(in, &st, p, dstDir, name, to, reflink)
		}
		return c.copyFile(in, &st, dstDir, name, to, reflink)
	}
	if method == Auto {
		var done bool
		if method, done, err = c.decide(in, &st, make, dstDir, name, to); done || err != nil {
			return err
		}
		if method == Hardlink {
			if done, err := c.link(srcDir, srcName, dstDir, name, to); done || err != nil {
				return err
			}
			method = Copy
		}
	}
	err = make(method == Reflink)
	if err != nil && method == Reflink && c.opts.Method == Auto && errors.Is(err, unix.EXDEV) {
		// A file on another file system within the source: Auto copies it.
		_ = unix.Unlinkat(dstDir, name, 0)
		c.copied.Add(1)
		err = make(false)
	}
	return err
}

// testHookOpened, when a test sets it, runs once a source file is open and
// stat'ed, before anything is read of it.
var testHookOpened func(in int)

// link makes name in dstDir a hard link of srcName in srcDir. Under Auto a
// refused link is not an error: EPERM from fs.protected_hardlinks (a file
// the cloning user does not own), EXDEV for a file on another file system
// within the source. done is then false, and the caller copies.
func (c *cloner) link(srcDir int, srcName string, dstDir int, name string, to where) (done bool, err error) {
	err = unix.Linkat(srcDir, srcName, dstDir, name, 0)
	switch {
	case err == nil:
		c.files.Add(1)
		return true, nil
	case (err == unix.EPERM || err == unix.EXDEV) && c.opts.Method == Auto:
		c.copied.Add(1)
		return false, nil
	}
	return false, dstErr("linkat", to.dst(), err)
}

// linkUnreadable is Auto's way with a file it may not read, before it has
// chosen a method: a hard link needs no read, so one on the destination's
// device is linked, as cp -al would, and the choice waits for a file it
// can read.
func (c *cloner) linkUnreadable(srcDir int, srcName string, dstDir int, name string, to where, openErr error) error {
	var st unix.Stat_t
	if unix.Fstatat(srcDir, srcName, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || uint64(st.Dev) != c.dev {
		return openErr
	}
	if err := unix.Linkat(srcDir, srcName, dstDir, name, 0); err != nil {
		return openErr
	}
	c.files.Add(1)
	return nil
}

// openSource opens a regular file of the source for reading, never through
// a link, and without blocking if it was swapped for a FIFO, and checks
// what it opened.
func openSource(dir int, name string, to where) (int, unix.Stat_t, error) {
	var st unix.Stat_t
	in, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, st, srcErr("openat", to.src(), err)
	}
	if err := unix.Fstat(in, &st); err != nil {
		unix.Close(in)
		return -1, st, srcErr("fstat", to.src(), err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(in)
		return -1, st, srcErr("clone", to.src(), errors.New("changed from a regular file during the clone"))
	}
	return in, st, nil
}

// decide resolves Auto on the first file: it tries a reflink (through
// make, so that a file with several links is recorded as any other),
// which it keeps if it works (done), else settles on a hard link when src
// and dst share a device, else a copy.
func (c *cloner) decide(in int, st *unix.Stat_t, make func(reflink bool) error, dstDir int, name string, to where) (m Method, done bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.method != Auto {
		return c.method, false, nil
	}
	if err := make(true); err == nil {
		c.method = Reflink
		return Reflink, true, nil
	}
	_ = unix.Unlinkat(dstDir, name, 0)
	if _, err := unix.Seek(in, 0, 0); err != nil {
		return "", false, srcErr("lseek", to.src(), err)
	}
	if uint64(st.Dev) == c.dev {
		c.method = Hardlink
	} else {
		c.method = Copy
	}
	return c.method, false, nil
}

// firstLink is where a file with several links was first made in the
// destination, for its other names to link to.
type firstLink struct {
	ready chan struct{} // closed once the first copy is made, or failed
	dir   *dstDir
	name  string
	src   string // the source directory's path, for an error
	ok    bool
}

// copyLinked copies a file with several links once per clone: the first
// name met is copied, the others wait for it and are linked to it, so the
// destination keeps the source's link structure, as cp -a does. If the
// first copy fails, the next name tries in its place.
func (c *cloner) copyLinked(in int, st *unix.Stat_t, p *dstDir, dstDir int, name string, to where, reflink bool) error {
	key := frd.ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
	for {
		mine := &firstLink{ready: make(chan struct{}), dir: p, name: name, src: to.srcDir}
		v, loaded := c.inode.LoadOrStore(key, mine)
		if !loaded {
			err := c.copyFile(in, st, dstDir, name, to, reflink)
			if err != nil {
				c.inode.Delete(key)
			}
			mine.ok = err == nil
			close(mine.ready)
			return err
		}
		first := v.(*firstLink)
		<-first.ready
		if first.ok {
			return c.linkTo(first, dstDir, name, to)
		}
	}
}

// linkTo links name in dstDir to the first copy of its file.
func (c *cloner) linkTo(first *firstLink, dstDir int, name string, to where) error {
	fd, err := first.dir.Dup("")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return dstErr("openat", c.dstPath(first.src), err)
	}
	defer unix.Close(fd)
	if err := unix.Linkat(fd, first.name, dstDir, name, 0); err != nil {
		return dstErr("linkat", to.dst(), err)
	}
	c.files.Add(1)
	return nil
}

// copyFile makes name in dstDir a new file with the contents of in, cloned
// (FICLONE) or copied, and the source's metadata, st.
func (c *cloner) copyFile(in int, st *unix.Stat_t, dstDir int, name string, to where, reflink bool) error {
	out, err := unix.Openat(dstDir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return dstErr("openat", to.dst(), err)
	}
	err = c.fill(in, out, st, to, reflink)
	if cerr := unix.Close(out); err == nil && cerr != nil {
		err = dstErr("close", to.dst(), cerr) // NFS and quotas report here
	}
	if err != nil {
		return err
	}
	c.files.Add(1)
	c.bytes.Add(st.Size)
	return nil
}

// fill writes the contents and metadata of in into out.
func (c *cloner) fill(in, out int, st *unix.Stat_t, to where, reflink bool) error {
	if reflink {
		if err := cloneData(out, in); err != nil {
			return dstErr("FICLONE", to.dst(), err)
		}
	} else if err := copyData(c.ctx, in, out, st); err != nil {
		return dstErr("copy", to.dst(), err)
	}
	if err := sinceOpened(in, st); err != nil {
		return srcErr("fstat", to.src(), err)
	}
	var xattrs []xattr
	if !c.opts.NoXattrs {
		var err error
		if xattrs, err = readXattrs(in, c.opts.NoACLs); err != nil {
			return srcErr("flistxattr", to.src(), err)
		}
	}
	return c.setMeta(out, st, xattrs, to.dst)
}

// sinceOpened takes into st what changed of the source file in while its
// data was read: a write by its owner meanwhile makes the kernel clear its
// set-id bits, and the copy, which may hold that write, must not keep
// them; its mode, owner and times are then those after the copy (its
// access time the one before it, as cp -a keeps).
func sinceOpened(in int, st *unix.Stat_t) error {
	var now unix.Stat_t
	if err := unix.Fstat(in, &now); err != nil {
		return err
	}
	if now.Ctim != st.Ctim || now.Mode != st.Mode {
		atime := st.Atim
		*st = now
		st.Atim = atime
	}
	return nil
}

// copyData copies st.Size bytes from in to out, keeping holes: only the
// data regions SEEK_DATA finds are copied in a file that has fewer blocks
// than its size, and the file is then extended to its size. A file that
// says it is empty is read all the same (copyUnsized).
func copyData(ctx context.Context, in, out int, st *unix.Stat_t) error {
	if st.Size == 0 {
		return copyUnsized(ctx, in, out)
	}
	if st.Blocks*512 >= st.Size {
		_, err := copyRange(ctx, in, out, 0, st.Size)
		return err
	}
	for off := int64(0); off < st.Size; {
		data, err := unix.Seek(in, off, unix.SEEK_DATA)
		if err == unix.ENXIO {
			break // a hole to the end
		}
		if err != nil {
			_, err = copyRange(ctx, in, out, off, st.Size-off) // no SEEK_DATA here: all of it
			return err
		}
		hole, err := unix.Seek(in, data, unix.SEEK_HOLE)
		if err != nil {
			return err
		}
		hole = min(hole, st.Size)
		if _, err := copyRange(ctx, in, out, data, hole-data); err != nil {
			return err
		}
		off = hole
	}
	return unix.Ftruncate(out, st.Size)
}

// copyUnsized copies a file whose size said 0: one read for an empty file.
// A file that has a size by now grew since its stat, and is copied as any
// other of that size, holes kept (another user's empty file made a huge
// sparse one must not be written out whole); one still of size 0 with
// data is a file whose size means nothing (/proc's), read to its end.
func copyUnsized(ctx context.Context, in, out int) error {
	var first [512]byte
	n, err := unix.Pread(in, first[:], 0)
	if n <= 0 || err != nil {
		return err
	}
	var now unix.Stat_t
	if err := unix.Fstat(in, &now); err != nil {
		return err
	}
	if now.Size > 0 {
		return copyData(ctx, in, out, &now)
	}
	if _, err := unix.Pwrite(out, first[:n], 0); err != nil {
		return err
	}
	for off := int64(n); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, err := preadWrite(in, out, off, copyChunk)
		if err != nil || k < copyChunk {
			return err
		}
		off += k
	}
}

// copyChunk is how much copyRange copies between two looks at its context,
// so that a cancelled clone of a large file stops within a fraction of a
// second.
const copyChunk = 64 << 20

// copyRange copies n bytes at off of in to the same offset of out, with
// copy_file_range where the kernel has it and will across these file
// systems, else pread and pwrite. It returns what it copied: less at the
// source's end.
func copyRange(ctx context.Context, in, out int, off, n int64) (int64, error) {
	done := int64(0)
	for done < n {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		roff, woff := off+done, off+done
		k, err := copyFileRange(in, &roff, out, &woff, int(min(n-done, copyChunk)))
		if err != nil {
			if done == 0 && (err == unix.EXDEV || err == unix.EOPNOTSUPP || err == unix.ENOSYS || err == unix.EINVAL) {
				return preadWrite(in, out, off, n)
			}
			if err == unix.EINTR {
				continue
			}
			return done, err
		}
		if k == 0 {
			break // the source shrank
		}
		done += int64(k)
		if testHookChunk != nil {
			testHookChunk(done)
		}
	}
	return done, nil
}

// testHookChunk, when a test sets it, runs after each chunk copyRange
// copies, with the bytes copied so far.
var testHookChunk func(done int64)

func preadWrite(in, out int, off, n int64) (int64, error) {
	buf := make([]byte, min(n, 128<<10))
	done := int64(0)
	for done < n {
		k, err := unix.Pread(in, buf[:min(int64(len(buf)), n-done)], off+done)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, err
		}
		if k == 0 {
			break
		}
		for w := buf[:k]; len(w) > 0; {
			m, err := unix.Pwrite(out, w, off+done)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return done, err
			}
			w, done = w[m:], done+int64(m)
		}
	}
	return done, nil
}
