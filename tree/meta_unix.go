//go:build linux || darwin

package tree

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// xattr is one extended attribute.
type xattr struct {
	name  string
	value []byte
}

// readXattrs reads the extended attributes of the open file fd, leaving
// out the POSIX ACLs under noACLs. A file system without them has none.
func readXattrs(fd int, noACLs bool) ([]xattr, error) {
	for {
		// The size first: most files have none, and then nothing is
		// allocated.
		n, err := unix.Flistxattr(fd, nil)
		switch {
		case err == unix.ENOTSUP || err == unix.EOPNOTSUPP:
			return nil, nil
		case err != nil:
			return nil, err
		case n == 0:
			return nil, nil
		}
		buf := make([]byte, n)
		n, err = unix.Flistxattr(fd, buf)
		if err == unix.ERANGE {
			continue // one was added meanwhile
		}
		if err != nil {
			return nil, err
		}
		return readValues(fd, buf[:n], noACLs)
	}
}

// readValues reads the value of each NUL-terminated name in names.
func readValues(fd int, names []byte, noACLs bool) ([]xattr, error) {
	var out []xattr
	for len(names) > 0 {
		name, rest, _ := bytes.Cut(names, []byte{0})
		names = rest
		if len(name) == 0 || noACLs && strings.HasPrefix(string(name), "system.posix_acl_") {
			continue
		}
		v, err := getXattr(fd, string(name))
		if err == errNoAttr {
			continue // removed since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, xattr{string(name), v})
	}
	return out, nil
}

func getXattr(fd int, name string) ([]byte, error) {
	buf := make([]byte, 256)
	for {
		n, err := unix.Fgetxattr(fd, name, buf)
		if err == unix.ERANGE {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}

// setMeta gives the open destination fd the source's metadata st: its
// owner where it may (first, since a change of owner clears file
// capabilities and set-id bits), its extended attributes, its mode
// without a set-id bit whose owner or group it could not keep, and its
// times. An attribute the destination refuses is a warning, as with cp.
// path builds the destination's path, for an error.
func (c *cloner) setMeta(fd int, st *unix.Stat_t, xattrs []xattr, path func() string) error {
	uid, gid, err := c.owner(fd, st)
	if err != nil {
		return dstErr("fchown", path(), err)
	}
	for _, x := range xattrs {
		if err := unix.Fsetxattr(fd, x.name, x.value, 0); err != nil {
			c.warn(dstErr("fsetxattr "+x.name, path(), err))
		}
	}
	if err := unix.Fchmod(fd, safeMode(st, uid, gid)); err != nil {
		return dstErr("fchmod", path(), err)
	}
	if !c.opts.NoTimes {
		if err := futimens(fd, st.Atim, st.Mtim); err != nil {
			return dstErr("futimens", path(), err)
		}
	}
	return nil
}

// owner gives fd the source's owner and group unless NoOwner says not to,
// or failing that the group alone (a user may give a file a group they
// are in), and returns the owner and group fd has then.
func (c *cloner) owner(fd int, st *unix.Stat_t) (uid, gid uint32, err error) {
	if st.Uid == c.newUID && st.Gid == c.newGID {
		return st.Uid, st.Gid, nil // made with the source's owner already
	}
	if !c.opts.NoOwner {
		err := unix.Fchown(fd, int(st.Uid), int(st.Gid))
		if err == nil {
			return st.Uid, st.Gid, nil
		}
		if err != unix.EPERM && err != unix.EINVAL { // EINVAL: an id this user namespace cannot map
			return 0, 0, err
		}
		_ = unix.Fchown(fd, -1, int(st.Gid))
	}
	var now unix.Stat_t
	if err := unix.Fstat(fd, &now); err != nil {
		return 0, 0, err
	}
	return now.Uid, now.Gid, nil
}

// safeMode is the source's mode less the set-user-ID bit when the copy's
// owner differs from the source's, and the set-group-ID bit when its group
// does: a copy never grants more than its source did.
func safeMode(st *unix.Stat_t, uid, gid uint32) uint32 {
	mode := uint32(st.Mode) & 0o7777
	if uid != st.Uid {
		mode &^= unix.S_ISUID
	}
	if gid != st.Gid {
		mode &^= unix.S_ISGID
	}
	return mode
}

// symlink makes again at name in dstDir the symbolic link srcName in
// srcDir, with its owner and times.
func (c *cloner) symlink(srcDir int, srcName string, dstDir int, name string, to where) error {
	// The stat comes first: reading the link may change its access time.
	var st unix.Stat_t
	if err := unix.Fstatat(srcDir, srcName, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return srcErr("fstatat", to.src(), err)
	}
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlinkat(srcDir, srcName, buf)
		if err != nil {
			return srcErr("readlinkat", to.src(), err)
		}
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	if err := unix.Symlinkat(string(buf), dstDir, name); err != nil {
		return dstErr("symlinkat", to.dst(), err)
	}
	c.links.Add(1)
	if c.opts.NoOwner && c.opts.NoTimes {
		return nil
	}
	return c.setMetaAt(dstDir, name, &st, to, false)
}

// setMetaAt gives the entry name of dstDir, a link or a special file that
// cannot be opened, the source's owner, mode (unless link) and times,
// never following a link.
func (c *cloner) setMetaAt(dstDir int, name string, st *unix.Stat_t, to where, mode bool) error {
	uid, gid, err := c.ownerAt(dstDir, name, st)
	if err != nil {
		return dstErr("fchownat", to.dst(), err)
	}
	if mode {
		if err := chmodNoFollow(dstDir, name, safeMode(st, uid, gid)); err != nil {
			return dstErr("fchmodat", to.dst(), err)
		}
	}
	if !c.opts.NoTimes {
		ts := []unix.Timespec{st.Atim, st.Mtim}
		if err := unix.UtimesNanoAt(dstDir, name, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return dstErr("utimensat", to.dst(), err)
		}
	}
	return nil
}

// ownerAt is owner for an entry that is not opened.
func (c *cloner) ownerAt(dir int, name string, st *unix.Stat_t) (uid, gid uint32, err error) {
	if st.Uid == c.newUID && st.Gid == c.newGID {
		return st.Uid, st.Gid, nil
	}
	if !c.opts.NoOwner {
		err := unix.Fchownat(dir, name, int(st.Uid), int(st.Gid), unix.AT_SYMLINK_NOFOLLOW)
		if err == nil {
			return st.Uid, st.Gid, nil
		}
		if err != unix.EPERM && err != unix.EINVAL {
			return 0, 0, err
		}
		_ = unix.Fchownat(dir, name, -1, int(st.Gid), unix.AT_SYMLINK_NOFOLLOW)
	}
	var now unix.Stat_t
	if err := unix.Fstatat(dir, name, &now, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, 0, err
	}
	return now.Uid, now.Gid, nil
}

// special handles a FIFO, socket or device as the options say: made again
// as cp -a makes them, with their owner, mode and times.
func (c *cloner) special(srcDir int, srcName string, st *unix.Stat_t, dstDir int, name string, to where) error {
	switch c.opts.Specials {
	case SkipSpecials:
		c.skipped.Add(1)
		return nil
	case FailOnSpecials:
		return srcErr("clone", to.src(), fmt.Errorf("a special file (mode %#o)", st.Mode))
	}
	if err := mknodAt(dstDir, name, uint32(st.Mode)&unix.S_IFMT|0o600, int(st.Rdev)); err != nil {
		return dstErr("mknodat", to.dst(), err)
	}
	c.specials.Add(1)
	return c.setMetaAt(dstDir, name, st, to, true)
}
