//go:build linux || darwin

package tree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pbednarcik/flexreaddir/frd"
	"github.com/pbednarcik/flexreaddir/internal/dirfd"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// Clone materializes src at dst, which must not exist and whose parent
// must, by the method opts ask for (Auto: a reflink where the file system
// can make one, else a hard link where src and dst share a device, else a
// copy), and reports what it did.
//
// A symbolic link given as src is cloned as a link, never followed;
// symbolic links inside the tree are made again as links; special files
// are left out, made again or refused as opts.Specials says. Modes are
// kept, and for copies and reflinks the modification and access times too.
// On any error nothing is left at dst, and the error names what failed and
// where.
func Clone(src, dst string, opts *Options) (res Result, err error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Method == "" {
		o.Method = Auto
	}
	switch o.Method {
	case Auto, Reflink, Hardlink, Copy:
	default:
		return res, fmt.Errorf("tree: unknown method %q", o.Method)
	}
	var st unix.Stat_t
	if err := unix.Lstat(src, &st); err != nil {
		return res, &Error{"lstat", src, err}
	}
	parent, err := openDir(filepath.Dir(dst))
	if err != nil {
		return res, &Error{"open", filepath.Dir(dst), err}
	}
	defer unix.Close(parent)
	name := filepath.Base(dst)
	c := &cloner{opts: o, method: o.Method}
	if err := unix.Fstatat(parent, name, &unix.Stat_t{}, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		return res, &Error{"clone", dst, unix.EEXIST}
	}
	if o.Method == Auto || o.Method == Reflink {
		// macOS clones the whole tree in one clonefile(2), never following
		// a link; elsewhere, or on a volume without clones, file by file.
		if done, err := cloneWhole(src, parent, name, dst); done {
			if err != nil {
				return res, err
			}
			return countClone(dst)
		}
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		err = c.symlink(unix.AT_FDCWD, src, parent, name, where{full: dst, src: src})
	case unix.S_IFDIR:
		err = c.tree(src, &st, parent, name, dst)
	case unix.S_IFREG:
		srcDir, oerr := openDir(filepath.Dir(src))
		if oerr != nil {
			return res, &Error{"open", filepath.Dir(src), oerr}
		}
		err = c.file(srcDir, filepath.Base(src), &st, parent, name, where{full: dst, src: src})
		unix.Close(srcDir)
	default:
		err = c.special(&st, parent, name, where{full: dst, src: src})
	}
	res = c.result()
	if err != nil {
		if !errors.Is(err, unix.EEXIST) || c.dirs.Load()+c.files.Load()+c.links.Load() > 0 {
			// Nothing stays at dst: it did not exist, so all there is ours.
			_ = os.RemoveAll(dst)
		}
		return res, err
	}
	return res, nil
}

type cloner struct {
	opts   Options
	mu     sync.Mutex
	method Method // resolved from Auto by the first file
	dev    uint64 // the destination's device, for Auto

	dirs, files, links, specials, skipped atomic.Int64
	bytes                                 atomic.Int64

	dst *dirfd.Set // destination directories kept open for their subdirectories
}

func (c *cloner) result() Result {
	m := c.method
	if m == Auto {
		m = Hardlink // a tree without files: nothing was decided
	}
	return Result{Method: m, Dirs: int(c.dirs.Load()), Files: int(c.files.Load()), Symlinks: int(c.links.Load()),
		Specials: int(c.specials.Load()), Skipped: int(c.skipped.Load()), Bytes: c.bytes.Load()}
}

func openDir(path string) (int, error) {
	return unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
}

// testHookDir, when a test sets it, runs first in each directory's visit.
var testHookDir func(d *walk.Dir)

// dstDir is a destination directory: made by its parent's visit, opened
// by its own, finished (mode and times) by Post. Its descriptor is kept
// from its visit to its Post only while it has subdirectories to come and
// the budget allows; otherwise it is found again from the nearest open
// ancestor, one openat(O_NOFOLLOW) per level, as the walker does.
type dstDir struct {
	dirfd.Node
	st unix.Stat_t // the source directory's
}

// perWorker is the most descriptors a clone's worker holds at once: the
// source directory, the destination directory, and a file's two ends.
const perWorker = 4

// budget fits the clone into the descriptors left: its workers, and the
// directories kept on each side.
func (c *cloner) budget() (workers, srcKept, dstKept int) {
	workers = c.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	side := c.opts.MaxOpenDirs
	if side <= 0 {
		side = dirfd.DefaultKept()
	}
	workers, kept := dirfd.Plan(workers, 2*side, perWorker, 2)
	srcKept = kept / 2
	return workers, srcKept, kept - srcKept
}

// walkKept is a count of kept directories as walk.Options.MaxOpenDirs
// takes it: none is negative, since 0 is the default.
func walkKept(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// tree clones the directory src into a new directory name of parent.
func (c *cloner) tree(src string, st *unix.Stat_t, parent int, name, dst string) error {
	if err := unix.Mkdirat(parent, name, 0o700); err != nil {
		return &Error{"mkdirat", dst, err}
	}
	root, err := dirfd.OpenAt(parent, name, false, dst)
	if err != nil {
		return &Error{"openat", dst, err}
	}
	var dstSt unix.Stat_t
	if err := unix.Fstat(root, &dstSt); err != nil {
		unix.Close(root)
		return &Error{"fstat", dst, err}
	}
	c.dev = uint64(dstSt.Dev)
	c.dirs.Add(1)
	workers, srcKept, dstKept := c.budget()
	c.dst = dirfd.NewSet(dstKept)
	defer c.dst.CloseAll()
	top := &dstDir{st: *st}
	c.dst.Keep(&top.Node, root, true)

	var firstErr error
	var errOnce sync.Once
	fail := func(err error) error {
		errOnce.Do(func() { firstErr = err })
		return err
	}
	rel := func(p string) string { return filepath.Join(dst, p[len(src):]) }
	opts := &walk.Options{
		Workers:     workers,
		MaxOpenDirs: walkKept(srcKept),
		Names:       true, // the clone stats only what its method needs
		OnError:     func(e *walk.Error) error { return fail(&Error{"walk", e.Path, e.Err}) },
		Post: func(d *walk.Dir) error {
			if err := c.finishDir(d.Data.(*dstDir), top, rel(d.Path)); err != nil {
				return fail(err)
			}
			return nil
		},
	}
	err = walk.Dirs(context.Background(), src, opts, func(d *walk.Dir) error {
		if testHookDir != nil {
			testHookDir(d)
		}
		p := top
		fd := top.Fd()
		if d.Parent != nil {
			p = &dstDir{Node: dirfd.Node{Parent: &d.Parent.Data.(*dstDir).Node, Name: d.Info.Name}}
			if err := unix.Fstat(int(d.Fd()), &p.st); err != nil {
				return fail(&Error{"fstat", d.Path, err})
			}
			var err error
			if fd, err = p.Open(rel(d.Path)); err != nil {
				return fail(&Error{"openat", rel(d.Path), err})
			}
			defer func() {
				// Subdirectories to come: keep the descriptor for them and
				// for Post if the budget allows. Otherwise Post, which
				// follows this visit at once, opens it again.
				subdirs := slices.ContainsFunc(d.Entries, func(e frd.Entry) bool { return e.Type.IsDir() })
				if !subdirs || !c.dst.Keep(&p.Node, fd, false) {
					unix.Close(fd)
				}
			}()
		}
		d.Data = p
		srcfd := int(d.Fd())
		for _, e := range d.Entries {
			// The destination's path, for an error: built only then.
			to := where{dstRoot: dst, srcRoot: src, srcDir: d.Path, name: e.Name}
			var err error
			switch {
			case e.Type.IsDir():
				if err = unix.Mkdirat(fd, e.Name, 0o700); err != nil {
					return fail(&Error{"mkdirat", to.String(), err})
				}
				c.dirs.Add(1)
			case e.Type&fs.ModeSymlink != 0:
				err = c.symlink(srcfd, e.Name, fd, e.Name, to)
			case e.Type.IsRegular():
				err = c.file(srcfd, e.Name, nil, fd, e.Name, to)
			default:
				var st unix.Stat_t
				if err = unix.Fstatat(srcfd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					err = &Error{"fstatat", filepath.Join(d.Path, e.Name), err}
				} else {
					err = c.special(&st, fd, e.Name, to)
				}
			}
			if err != nil {
				return fail(err)
			}
		}
		return nil
	})
	if firstErr != nil {
		return firstErr
	}
	return err
}

// where is a destination path for an error message, kept in parts so
// that a clone builds it only when something fails.
type where struct {
	full, src                      string // given whole, with the source's
	dstRoot, srcRoot, srcDir, name string // else: srcDir's name under dstRoot
}

func (w where) String() string {
	if w.full != "" {
		return w.full
	}
	return filepath.Join(w.dstRoot, w.srcDir[len(w.srcRoot):], w.name)
}

// source is the path of the entry being cloned.
func (w where) source() string {
	if w.full != "" {
		return w.src
	}
	return filepath.Join(w.srcDir, w.name)
}

// finishDir gives the destination directory p, complete, its final mode
// and times, and closes it.
func (c *cloner) finishDir(p, top *dstDir, path string) error {
	fd := p.Fd()
	if fd >= 0 {
		defer c.dst.Close(&p.Node, p == top)
	} else {
		var err error
		if fd, err = p.Open(path); err != nil {
			return &Error{"openat", path, err}
		}
		defer unix.Close(fd)
	}
	if err := unix.Fchmod(fd, uint32(p.st.Mode)&07777); err != nil {
		return &Error{"fchmod", path, err}
	}
	if err := futimens(fd, p.st.Atim, p.st.Mtim); err != nil {
		return &Error{"futimens", path, err}
	}
	return nil
}

// symlink makes again at name in dstDir the symbolic link name in srcDir.
func (c *cloner) symlink(srcDir int, srcName string, dstDir int, name string, dst where) error {
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlinkat(srcDir, srcName, buf)
		if err != nil {
			return &Error{"readlinkat", dst.source(), err}
		}
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	if err := unix.Symlinkat(string(buf), dstDir, name); err != nil {
		return &Error{"symlinkat", dst.String(), err}
	}
	c.links.Add(1)
	return nil
}

// file makes at name in dstDir the regular file name of srcDir, by the
// clone's method. st describes the source file, or is nil: a hard link
// needs no stat, a copy or a reflink one for the mode, size and times.
func (c *cloner) file(srcDir int, srcName string, st *unix.Stat_t, dstDir int, name string, dst where) error {
	c.mu.Lock()
	method := c.method
	c.mu.Unlock()
	if st == nil && method != Hardlink {
		st = new(unix.Stat_t)
		if err := unix.Fstatat(srcDir, srcName, st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return &Error{"fstatat", dst.String(), err}
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG {
			return &Error{"clone", dst.String(), errors.New("changed from a regular file during the clone")}
		}
	}
	if method == Auto {
		method = c.decide(srcDir, srcName, st, dstDir, name, dst)
		if method == "" {
			// decide made the file itself: the first reflink worked.
			c.files.Add(1)
			c.bytes.Add(st.Size)
			return nil
		}
	}
	var err error
	switch method {
	case Hardlink:
		if err = unix.Linkat(srcDir, srcName, dstDir, name, 0); err != nil {
			err = &Error{"linkat", dst.String(), err}
		}
	case Reflink, Copy:
		err = c.copyFile(srcDir, srcName, st, dstDir, name, dst, method == Reflink)
	}
	if err != nil {
		return err
	}
	c.files.Add(1)
	if method != Hardlink {
		c.bytes.Add(st.Size)
	}
	return nil
}

// decide resolves Auto on the first file: it tries a reflink, which it
// keeps if it works (returning ""), else settles on a hard link when src
// and dst share a device, else a copy.
func (c *cloner) decide(srcDir int, srcName string, st *unix.Stat_t, dstDir int, name string, dst where) Method {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.method != Auto {
		return c.method
	}
	if err := c.copyFile(srcDir, srcName, st, dstDir, name, dst, true); err == nil {
		c.method = Reflink
		return ""
	}
	_ = unix.Unlinkat(dstDir, name, 0)
	if uint64(st.Dev) == c.dev {
		c.method = Hardlink
	} else {
		c.method = Copy
	}
	return c.method
}

// copyFile makes a new file with st's mode and times, its data cloned
// (FICLONE) or copied (copy_file_range).
func (c *cloner) copyFile(srcDir int, srcName string, st *unix.Stat_t, dstDir int, name string, dst where, reflink bool) error {
	in, err := unix.Openat(srcDir, srcName, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &Error{"openat", srcName, err}
	}
	defer unix.Close(in)
	out, err := unix.Openat(dstDir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &Error{"openat", dst.String(), err}
	}
	defer unix.Close(out)
	if reflink {
		if err := cloneData(out, in); err != nil {
			return &Error{"FICLONE", dst.String(), err}
		}
	} else if err := copyData(in, out, st.Size); err != nil {
		return &Error{"copy", dst.String(), err}
	}
	if err := unix.Fchmod(out, uint32(st.Mode)&07777); err != nil {
		return &Error{"fchmod", dst.String(), err}
	}
	if err := futimens(out, st.Atim, st.Mtim); err != nil {
		return &Error{"futimens", dst.String(), err}
	}
	return nil
}

// special handles a FIFO, socket or device as the options say.
func (c *cloner) special(st *unix.Stat_t, dstDir int, name string, dst where) error {
	switch c.opts.Specials {
	case SkipSpecials:
		c.skipped.Add(1)
		return nil
	case FailOnSpecials:
		return &Error{"clone", dst.String(), fmt.Errorf("a special file (mode %#o)", st.Mode)}
	}
	if st.Mode&unix.S_IFMT == unix.S_IFSOCK {
		c.skipped.Add(1) // a socket cannot be made again without its server
		return nil
	}
	if err := mknodAt(dstDir, name, uint32(st.Mode), int(st.Rdev)); err != nil {
		return &Error{"mknodat", dst.String(), err}
	}
	c.specials.Add(1)
	return nil
}

// countClone counts what a whole-tree clone made, for its Result.
func countClone(dst string) (Result, error) {
	res := Result{Method: Reflink}
	var st unix.Stat_t
	if err := unix.Lstat(dst, &st); err != nil {
		return res, &Error{"lstat", dst, err}
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		res.Symlinks = 1
		return res, nil
	case unix.S_IFDIR:
	default:
		res.Files, res.Bytes = 1, st.Size
		return res, nil
	}
	var mu sync.Mutex
	res.Dirs = 1
	err := walk.Dirs(context.Background(), dst, &walk.Options{}, func(d *walk.Dir) error {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range d.Entries {
			switch {
			case e.Type.IsDir():
				res.Dirs++
			case e.Type&fs.ModeSymlink != 0:
				res.Symlinks++
			case e.Type.IsRegular():
				res.Files++
				res.Bytes += e.Size
			default:
				res.Specials++
			}
		}
		return nil
	})
	return res, err
}

// copyData copies size bytes from in to out: copy_file_range where the
// kernel has it and will across these file systems, else read and write.
func copyData(in, out int, size int64) error {
	left := size
	for left > 0 {
		n, err := copyRange(in, out, int(min(left, 1<<30)))
		if err != nil {
			if left == size && (err == unix.EXDEV || err == unix.EOPNOTSUPP || err == unix.ENOSYS || err == unix.EINVAL) {
				break
			}
			return err
		}
		if n == 0 {
			return nil // the source shrank
		}
		left -= int64(n)
	}
	if left == 0 {
		return nil
	}
	buf := make([]byte, 128<<10)
	for {
		n, err := unix.Read(in, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		for w := buf[:n]; len(w) > 0; {
			m, err := unix.Write(out, w)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return err
			}
			w = w[m:]
		}
	}
}
