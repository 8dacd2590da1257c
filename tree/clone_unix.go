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

// srcErr and dstErr are a clone's errors on either side.
func srcErr(op, path string, err error) *Error { return &Error{op, path, "source", err} }
func dstErr(op, path string, err error) *Error { return &Error{op, path, "destination", err} }

// Clone is CloneContext without a context.
func Clone(src, dst string, opts *Options) (Result, error) {
	return CloneContext(context.Background(), src, dst, opts)
}

// CloneContext materializes src at dst, which must not exist and whose
// parent must, by the method opts ask for (Auto: a reflink where the file
// system can make one, else a hard link where src and dst share a device,
// else a copy), and reports what it did.
//
// It keeps what cp -a keeps, unless opts say otherwise: modes, owners (as
// root), times, extended attributes with ACLs and file capabilities, hard
// links within the tree, holes in sparse files. It never makes a set-id
// file whose owner or group differs from the source's: a bit it cannot
// keep safely is cleared. src's last component is never followed: a
// symbolic link given as src (with a trailing slash too) is cloned as a
// link, and a directory is opened with O_NOFOLLOW, walked through that
// descriptor and given the owner and mode fstat reads from it, so a link
// or another directory swapped in for src is refused or cloned as what it
// is. Symbolic links inside the tree are made again as links; special
// files are left out, made again or refused as opts.Specials says. A dst
// inside the src tree is refused before anything is made.
//
// The clone is built in a new directory beside dst that only the cloning
// user may enter (see TempPrefix), and renamed from it to dst, without
// replacing anything, only when complete: a reader never sees a half tree
// at dst, and nobody can swap anything in it meanwhile. On any error, or
// when ctx is cancelled, what was made is removed through that
// directory's descriptor, and the directory itself only if its name still
// holds it; the error says so if it could not be. If the final rename
// fails (something appeared at dst), the finished clone is left in the
// work directory and the error says where. The error names what failed,
// where, and on which side.
func CloneContext(ctx context.Context, src, dst string, opts *Options) (Result, error) {
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
		return Result{}, fmt.Errorf("tree: unknown method %q", o.Method)
	}
	source, err := openRoot(src, "source")
	if err != nil {
		return Result{}, err
	}
	defer source.close()
	dst = filepath.Clean(dst) // "new/" names new, as with cp
	parentPath := filepath.Dir(dst)
	parent, err := openDir(parentPath)
	if err != nil {
		return Result{}, dstErr("open", parentPath, err)
	}
	defer unix.Close(parent)
	name := filepath.Base(dst)
	if err := unix.Fstatat(parent, name, &unix.Stat_t{}, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		return Result{}, dstErr("clone", dst, unix.EEXIST)
	}
	if source.isDir() {
		if err := refuseInside(&source.st, parent, src, dst); err != nil {
			return Result{}, err
		}
	}
	tmp, err := tempName(name)
	if err != nil {
		return Result{}, err
	}
	w, err := makeWork(parent, parentPath, tmp)
	if err != nil {
		return Result{}, err
	}
	defer w.close()
	c := &cloner{ctx: ctx, opts: o, method: o.Method, dev: uint64(w.st.Dev), newUID: uint32(unix.Geteuid()), newGID: w.newGID()}
	made := filepath.Join(w.path, name)
	err = c.make(source, w.fd, name, dst, made)
	if err == nil {
		err = ctx.Err()
	}
	res := c.result()
	if err != nil {
		return res, c.undo(w, name, made, err)
	}
	if err := renameNoReplace(w.fd, name, parent, name); err != nil {
		return res, fmt.Errorf("%w; %s", dstErr("rename", dst, err), w.left(name))
	}
	if err := w.remove(); err != nil {
		res.Warnings = append(res.Warnings, err)
	}
	return res, nil
}

// undo removes what a failed clone made in its work directory w (name, at
// path made), then w, and says in the error what it could not remove.
func (c *cloner) undo(w *work, name, made string, err error) error {
	if rerr := removeTree(w.fd, name, made); rerr != nil {
		return fmt.Errorf("%w; and the partial clone %s could not be removed: %v", err, made, rerr)
	}
	if rerr := w.remove(); rerr != nil {
		return fmt.Errorf("%w; and %v", err, rerr)
	}
	return err
}

// make clones the source, whatever it is, at name in parent, the work
// directory, where made is its path; dst, its final path, names it in
// errors.
func (c *cloner) make(src *root, parent int, name, dst, made string) error {
	if c.opts.Method == Auto || c.opts.Method == Reflink {
		// macOS clones the whole tree in one clonefile(2), never following
		// a link; elsewhere, or on a volume without clones, file by file.
		if done, err := cloneWhole(src.parent, src.name, parent, name, dst); done {
			if err == nil {
				c.counted, err = countClone(made)
			}
			return err
		}
	}
	to := where{full: dst, srcFull: src.path}
	switch src.st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return c.symlink(src.parent, src.name, parent, name, to)
	case unix.S_IFDIR:
		return c.tree(src, parent, name, dst)
	case unix.S_IFREG:
		return c.file(src.parent, src.name, nil, parent, name, to)
	}
	if c.opts.Specials == SkipSpecials {
		return srcErr("clone", src.path, errors.New("a special file, which Options.Specials says to skip"))
	}
	return c.special(src.parent, src.name, &src.st, parent, name, to)
}

type cloner struct {
	ctx  context.Context
	opts Options

	mu     sync.Mutex
	method Method // resolved from Auto by the first file
	dev    uint64 // the destination's device, for Auto

	// newUID and newGID are the owner and group what the clone makes gets
	// before any chown: a file whose source has them needs none.
	newUID, newGID uint32

	dirs, files, links, specials, skipped, copied atomic.Int64
	bytes                                         atomic.Int64
	counted                                       Result // what a whole-tree clone made

	warnMu   sync.Mutex
	warnings []error

	dst   *dirfd.Set // destination directories kept open for their subdirectories
	dstID frd.ID     // the destination root's, which the walk must never enter
	inode sync.Map   // frd.ID -> *firstLink, for hard links under a copy

	// srcRoot and dstRoot are the tree's paths, for errors: a directory's
	// destination path is built from its source's only when one needs it.
	srcRoot, dstRoot string
}

func (c *cloner) result() Result {
	if c.counted.Method != "" {
		return c.counted
	}
	m := c.method
	if m == Auto {
		m = Hardlink // a tree without files: nothing was decided
	}
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	return Result{Method: m, Dirs: int(c.dirs.Load()), Files: int(c.files.Load()), Symlinks: int(c.links.Load()),
		Specials: int(c.specials.Load()), Skipped: int(c.skipped.Load()), Bytes: c.bytes.Load(),
		Copied: int(c.copied.Load()), Warnings: slices.Clone(c.warnings)}
}

// warn keeps what could not be kept, for Result.Warnings.
func (c *cloner) warn(err error) {
	c.warnMu.Lock()
	c.warnings = append(c.warnings, err)
	c.warnMu.Unlock()
}

// openDir opens a directory to work relative to, not to list: one that
// may be searched but not read will do (O_PATH on Linux).
func openDir(path string) (int, error) {
	return unix.Open(path, openPathFlags|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
}

// testHookDir, when a test sets it, runs first in each directory's visit.
var testHookDir func(d *walk.Dir)

// dstDir is a destination directory: made by its parent's visit, opened
// by its own, finished (owner, attributes, mode and times) by Post. Its
// descriptor is kept from its visit to its Post only while it has
// subdirectories to come and the budget allows; otherwise it is found
// again from the nearest open ancestor, one openat(O_NOFOLLOW) per level,
// as the walker does.
type dstDir struct {
	dirfd.Node
	st     unix.Stat_t // the source directory's, read before the walk lists it (its access time)
	xattrs []xattr     // the source directory's, set at Post so that no child inherits a default ACL early

	mu       sync.Mutex
	children map[string]*dstDir // subdirectories made and not yet visited
}

// describe takes p's owner, mode and times from the source directory the
// walk opened, srcfd, rather than from the stat of its name in its
// parent's visit: another directory renamed in between is cloned as what
// it is, with its own owner and mode. Only the access time of the earlier
// stat is kept, of the same directory, read before the walk listed it.
func (p *dstDir) describe(srcfd int, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(srcfd, &st); err != nil {
		return srcErr("fstat", path, err)
	}
	if st.Dev == p.st.Dev && st.Ino == p.st.Ino {
		st.Atim = p.st.Atim
	}
	p.st = st
	return nil
}

// child takes the subdirectory name made by p's visit, for its own visit.
func (p *dstDir) child(name string) *dstDir {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.children[name]
	delete(p.children, name)
	return c
}

// perWorker is the most descriptors a clone's worker holds at once: the
// source directory, the destination directory, and a file's two ends.
const perWorker = 4

// budget fits the clone into the descriptors left: its workers, and the
// directories kept on each side.
func (c *cloner) budget() (workers, srcKept, dstKept int, release func()) {
	workers = c.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	side := c.opts.MaxOpenDirs
	if side <= 0 {
		side = dirfd.DefaultKept()
	}
	workers, kept, release := dirfd.Plan(workers, 2*side, perWorker, 2)
	srcKept = kept / 2
	return workers, srcKept, kept - srcKept, release
}

// walkKept is a count of kept directories as walk.Options.MaxOpenDirs
// takes it: none is negative, since 0 is the default.
func walkKept(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// tree clones the source directory into a new directory name of parent;
// dst is the path errors name.
func (c *cloner) tree(source *root, parent int, name, dst string) error {
	src := source.path
	// Only the cloning user may enter the tree until it is complete: its
	// root gets its final mode last.
	if err := unix.Mkdirat(parent, name, 0o700); err != nil {
		return dstErr("mkdirat", dst, err)
	}
	root, err := dirfd.OpenAt(parent, name, false, dst)
	if err != nil {
		return dstErr("openat", dst, err)
	}
	var dstSt unix.Stat_t
	if err := unix.Fstat(root, &dstSt); err != nil {
		unix.Close(root)
		return dstErr("fstat", dst, err)
	}
	c.dev = uint64(dstSt.Dev)
	c.dstID = frd.ID{Dev: dirfd.DevNum(dstSt.Dev), Ino: uint64(dstSt.Ino)}
	c.dirs.Add(1)
	workers, srcKept, dstKept, release := c.budget()
	defer release()
	c.dst = dirfd.NewEvictingSet(dstKept)
	defer c.dst.CloseAll()
	top := &dstDir{st: source.st}
	c.dst.Keep(&top.Node, root, true)

	var firstErr error
	var errOnce sync.Once
	fail := func(err error) error {
		errOnce.Do(func() { firstErr = err })
		return err
	}
	c.srcRoot, c.dstRoot = src, dst
	opts := &walk.Options{
		Workers:     workers,
		MaxOpenDirs: walkKept(srcKept),
		Names:       true, // the clone stats only what its method needs
		Planned:     true, // c.budget's plan for both trees
		OnError:     func(e *walk.Error) error { return fail(srcErr("walk", e.Path, e.Err)) },
		Post: func(d *walk.Dir) error {
			if err := c.finishDir(d.Data.(*dstDir), d.Path); err != nil {
				return fail(err)
			}
			return nil
		},
	}
	source.closeParent() // walked from its own descriptor: one less open
	err = walk.DirsFile(c.ctx, source.dir, opts, func(d *walk.Dir) error {
		source.walked(d)
		if testHookDir != nil {
			testHookDir(d)
		}
		if err := c.visit(d, top); err != nil {
			return fail(err)
		}
		return nil
	})
	if firstErr != nil {
		return firstErr
	}
	return err
}

// visit makes the entries of the source directory d in its destination.
func (c *cloner) visit(d *walk.Dir, top *dstDir) error {
	if d.Info.ID() == c.dstID {
		// The source reaches the clone (a bind mount of part of the
		// destination's parent inside it): cp's "into itself".
		return dstErr("clone", c.dstPath(d.Path), fmt.Errorf("%w: the source %s reaches the destination", ErrIntoItself, d.Path))
	}
	srcfd := int(d.Fd())
	p, fd := top, top.Fd()
	if d.Parent != nil {
		if p = d.Parent.Data.(*dstDir).child(d.Info.Name); p == nil {
			return srcErr("clone", d.Path, errors.New("a directory that was not in its parent's listing"))
		}
		var err error
		if fd, err = c.openDst(p, d.Path); err != nil {
			return err
		}
		defer func() {
			// Subdirectories to come: keep the descriptor for them and
			// for Post if the budget allows (else Post opens it again).
			// None: Post follows this visit at once, on this worker, so
			// the descriptor is kept for it outside the budget.
			subdirs := slices.ContainsFunc(d.Entries, func(e frd.Entry) bool { return e.Type.IsDir() })
			if !c.dst.Keep(&p.Node, fd, !subdirs) {
				unix.Close(fd)
			}
		}()
	}
	d.Data = p
	if err := p.describe(srcfd, d.Path); err != nil {
		return err
	}
	if !c.opts.NoXattrs {
		var err error
		if p.xattrs, err = readXattrs(srcfd, c.opts.NoACLs); err != nil {
			return srcErr("flistxattr", d.Path, err)
		}
	}
	for _, e := range d.Entries {
		// The paths, for an error: built only then.
		to := where{c: c, srcDir: d.Path, name: e.Name}
		if err := c.entry(srcfd, p, fd, e, to); err != nil {
			return err
		}
	}
	return nil
}

// dstPath is the destination path of the source directory src, for an
// error.
func (c *cloner) dstPath(src string) string {
	return filepath.Join(c.dstRoot, src[len(c.srcRoot):])
}

// openDst opens the destination directory p, which src is cloned into,
// from the nearest one kept: no path is built unless it fails.
func (c *cloner) openDst(p *dstDir, src string) (int, error) {
	fd, err := c.dst.Open(&p.Node, "")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return -1, dstErr("openat", c.dstPath(src), err)
	}
	return fd, nil
}

// subdir makes in the destination directory p, open as fd, the
// subdirectory name of the source directory srcfd, and keeps the source's
// metadata for its visit: read now, before the walk lists it, so that its
// access time is the one cp -a keeps.
func (c *cloner) subdir(srcfd int, p *dstDir, fd int, name string, to where) error {
	sub := &dstDir{Node: dirfd.Node{Parent: &p.Node, Name: name}}
	if err := unix.Fstatat(srcfd, name, &sub.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil // removed since the listing: the walk leaves it out too
		}
		return srcErr("fstatat", to.src(), err)
	}
	if err := unix.Mkdirat(fd, name, 0o700); err != nil {
		return dstErr("mkdirat", to.dst(), err)
	}
	p.mu.Lock()
	if p.children == nil {
		p.children = map[string]*dstDir{}
	}
	p.children[name] = sub
	p.mu.Unlock()
	c.dirs.Add(1)
	return nil
}

// entry makes e, an entry of the source directory srcfd, in the
// destination directory p, open as fd. An entry removed from the source
// since the listing, which the clone finds gone when it comes to it, is
// left out, as the walk leaves out a directory removed before its open.
func (c *cloner) entry(srcfd int, p *dstDir, fd int, e frd.Entry, to where) error {
	err := c.make1(srcfd, p, fd, e, to)
	if err != nil && errors.Is(err, unix.ENOENT) {
		var st unix.Stat_t
		if unix.Fstatat(srcfd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW) == unix.ENOENT {
			return nil
		}
	}
	return err
}

// make1 makes one entry, as entry says.
func (c *cloner) make1(srcfd int, p *dstDir, fd int, e frd.Entry, to where) error {
	switch {
	case e.Type.IsDir():
		return c.subdir(srcfd, p, fd, e.Name, to)
	case e.Type.IsRegular():
		return c.file(srcfd, e.Name, p, fd, e.Name, to)
	case e.Type&fs.ModeSymlink != 0:
		return c.symlink(srcfd, e.Name, fd, e.Name, to)
	}
	var st unix.Stat_t
	if err := unix.Fstatat(srcfd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return srcErr("fstatat", to.src(), err)
	}
	return c.special(srcfd, e.Name, &st, fd, e.Name, to)
}

// finishDir gives the destination directory p, complete, the source's
// owner, attributes, mode and times, and closes it; src is the source
// directory's path.
func (c *cloner) finishDir(p *dstDir, src string) error {
	fd := c.dst.Take(&p.Node)
	if fd < 0 {
		var err error
		if fd, err = c.openDst(p, src); err != nil {
			return err
		}
	}
	defer unix.Close(fd)
	p.mu.Lock()
	defer p.mu.Unlock()
	for name := range p.children {
		// Made, then removed from the source before the walk opened it:
		// left out, as the walk leaves it out.
		if err := unix.Unlinkat(fd, name, unix.AT_REMOVEDIR); err != nil {
			return dstErr("rmdir", filepath.Join(c.dstPath(src), name), err)
		}
		c.dirs.Add(-1)
	}
	c.keepParent(p, fd)
	return c.setMeta(fd, &p.st, p.xattrs, func() string { return c.dstPath(src) })
}

// keepParent keeps, if it has none kept, the descriptor of the directory
// above p, open as fd, for its other subdirectories' visits and its own
// Post, which come next in a chain: found through "..", one open, rather
// than again from the top, one per level above it once the deepest
// directories have taken the budget. The destination is the work
// directory's, which only the cloning user can enter: its ".." is the
// directory it was made in.
func (c *cloner) keepParent(p *dstDir, fd int) {
	up := p.Parent
	if up == nil || up.Kept() {
		return
	}
	ufd, err := unix.Openat(fd, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == nil && !c.dst.Keep(up, ufd, false) {
		unix.Close(ufd)
	}
}

// where is the paths of an entry for an error message, kept in parts so
// that a clone builds them only when something fails.
type where struct {
	full, srcFull string // given whole: the clone of a lone file, link or special
	// Else the entry name of the source directory srcDir, cloned into
	// its destination (c.dstPath).
	srcDir, name string
	c            *cloner
}

func (w where) dst() string {
	if w.full != "" {
		return w.full
	}
	return filepath.Join(w.c.dstPath(w.srcDir), w.name)
}

func (w where) src() string {
	if w.full != "" {
		return w.srcFull
	}
	return filepath.Join(w.srcDir, w.name)
}

// countClone counts what a whole-tree clone made, for its Result.
func countClone(dst string) (Result, error) {
	res := Result{Method: Reflink}
	var st unix.Stat_t
	if err := unix.Lstat(dst, &st); err != nil {
		return res, dstErr("lstat", dst, err)
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
