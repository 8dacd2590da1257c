//go:build unix

package trash

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// Put moves the entry name of the directory dirfd, whose absolute path is
// path, into the trash of its file system, and returns where it now is.
// The .trashinfo file is made first, with O_EXCL, under a name no other
// trashing holds; the entry is then renamed next to it without replacing
// anything. It is refused, and nothing moved, when no trash on the
// entry's file system can be used. same, if not nil, checks the entry
// once renamed (by its directory and name in the trash): a rename acts on
// a name, and another user may have put another entry under it since the
// last check; that one is put back and same's error returned.
func Put(dirfd int, name, path string, same func(fd int, name string) error) (string, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return "", err
	}
	dir := realDir(dirfd, filepath.Dir(path))
	dev := uint64(st.Dev)
	t, err := pick(dirfd, dev, dir)
	if err != nil {
		return "", err
	}
	defer t.close()
	orig := filepath.Join(dir, name)
	if t.top != "" { // a $topdir trash: the path relative to $topdir
		rel, err := filepath.Rel(t.top, orig)
		if err == nil && rel != ".." && !filepath.IsAbs(rel) && len(rel) > 2 && rel[:3] != "../" {
			orig = rel
		}
	}
	text := infoText(orig, time.Now())
	for i := 1; ; i++ {
		as := uniqueName(name, i)
		f, err := unix.Openat(t.info, as+".trashinfo", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot write in %s: %w", filepath.Join(t.path, "info"), err)
		}
		_, err = unix.Write(f, []byte(text))
		if cerr := unix.Close(f); err == nil {
			err = cerr
		}
		if err == nil {
			err = renameNoReplace(dirfd, name, t.files, as)
		}
		if errors.Is(err, unix.EEXIST) || errors.Is(err, unix.ENOTEMPTY) {
			unix.Unlinkat(t.info, as+".trashinfo", 0) // a stray file of that name: the next name
			continue
		}
		if err != nil {
			unix.Unlinkat(t.info, as+".trashinfo", 0)
			if errors.Is(err, unix.EXDEV) {
				return "", fmt.Errorf("the trash %s is on another mount: not moved", t.path)
			}
			return "", err
		}
		where := filepath.Join(t.path, "files", as)
		if same == nil {
			return where, nil
		}
		if err := same(t.files, as); err != nil {
			if rerr := renameNoReplace(t.files, as, dirfd, name); rerr != nil {
				return "", fmt.Errorf("%w; the entry put under its name at the last moment is in the trash as %s (it could not be put back: %v)", err, where, rerr)
			}
			unix.Unlinkat(t.info, as+".trashinfo", 0)
			return "", err
		}
		return where, nil
	}
}

// uniqueName is the i-th name tried for name in the trash: name, then
// name_2, name_3..., cut so that the .trashinfo's name fits NAME_MAX.
func uniqueName(name string, i int) string {
	suffix := ""
	if i > 1 {
		suffix = "_" + strconv.Itoa(i)
	}
	if most := 255 - len(".trashinfo") - len(suffix); len(name) > most {
		name = name[:most]
	}
	return name + suffix
}

// realDir is the directory dirfd's path with no link in it (from
// /proc/self/fd on Linux), else given.
func realDir(dirfd int, given string) string {
	if p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(dirfd)); err == nil && filepath.IsAbs(p) {
		return p
	}
	if p, err := filepath.EvalSymlinks(given); err == nil {
		return p
	}
	return given
}

// Home is the home trash: $XDG_DATA_HOME/Trash, or ~/.local/share/Trash;
// "" when neither names an absolute directory. The home directory is
// $HOME, else the user database's: never a relative path, which would be
// the working directory's, perhaps one another user writes.
func Home() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "Trash")
	}
	home := os.Getenv("HOME")
	if !filepath.IsAbs(home) {
		home = ""
		if u, err := user.LookupId(strconv.Itoa(os.Getuid())); err == nil {
			home = u.HomeDir
		}
	}
	if !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "share", "Trash")
}

// place is a trash opened: its files and info directories, checked to be
// the user's, held by descriptor so that a name renamed meanwhile cannot
// lead elsewhere.
type place struct {
	files, info int
	path        string // the trash's path, for messages and the result
	top         string // $topdir in a $topdir trash, to which paths are relative
}

func (p *place) close() {
	unix.Close(p.files)
	unix.Close(p.info)
}

// pick opens the trash for an entry on the device dev in the directory
// dirfd (whose path is dir): the home trash if it is on that device, else
// a trash at the top of the file system.
func pick(dirfd int, dev uint64, dir string) (*place, error) {
	uid := os.Getuid()
	home := Home()
	if home != "" {
		if d, ok := devOf(home); ok && d == dev {
			fd, err := openHome(home, uid)
			if err != nil {
				return nil, err
			}
			defer unix.Close(fd)
			return openTrash(fd, home, "", dev, uid)
		}
	}
	topfd, levels, err := topOf(dirfd, dev)
	if err != nil {
		return nil, err
	}
	defer unix.Close(topfd)
	top := dir
	for range levels {
		top = filepath.Dir(top)
	}
	// An administrator's $topdir/.Trash, sticky and no link, holds one
	// directory per user; root's, or its owner could move root's away.
	if admin, err := unix.Openat(topfd, ".Trash", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0); err == nil {
		var st unix.Stat_t
		if unix.Fstat(admin, &st) == nil && st.Mode&unix.S_ISVTX != 0 && (st.Uid == 0 || int(st.Uid) == uid) {
			mine := filepath.Join(top, ".Trash", strconv.Itoa(uid))
			if fd, err := ownDir(admin, strconv.Itoa(uid), mine, uid); err == nil {
				unix.Close(admin)
				defer unix.Close(fd)
				return openTrash(fd, mine, top, dev, uid)
			}
		}
		unix.Close(admin)
	}
	mine := filepath.Join(top, ".Trash-"+strconv.Itoa(uid))
	fd, err := ownDir(topfd, ".Trash-"+strconv.Itoa(uid), mine, uid)
	if err != nil {
		return nil, fmt.Errorf("no trash on this file system (the home trash %s is on another): %w", home, err)
	}
	defer unix.Close(fd)
	return openTrash(fd, mine, top, dev, uid)
}

// openHome opens the home trash, made if need be: the directories above
// it are the user's own to set (a link among them is followed), but the
// trash itself must be the user's and writable by nobody else, or what
// goes there would be another user's to read or take.
func openHome(home string, uid int) (int, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return -1, err
	}
	fd, err := unix.Open(home, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("cannot open %s: %w", home, err)
	}
	if err := private(fd, home, uid, false); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// private checks that the directory fd (at path) is uid's and that no
// one else may write in it; mode 0700 exactly if strict (the
// specification's $topdir/.Trash-$uid).
func private(fd int, path string, uid int, strict bool) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	switch {
	case int(st.Uid) != uid:
		return fmt.Errorf("%s belongs to uid %d: not used", path, st.Uid)
	case strict && st.Mode&0o777 != 0o700:
		return fmt.Errorf("%s has mode %o, not 700: not used", path, st.Mode&0o777)
	case st.Mode&0o022 != 0:
		return fmt.Errorf("%s has mode %o, which others may write: not used", path, st.Mode&0o777)
	}
	return nil
}

// ownDir makes name in the directory parent (path is its path), mode
// 0700, or opens it, no link followed, and checks that it is a directory
// of uid's that nobody else may enter; it returns its descriptor, so that
// what is checked is what is used.
func ownDir(parent int, name, path string, uid int) (int, error) {
	err := unix.Mkdirat(parent, name, 0o700)
	if err != nil && !errors.Is(err, unix.EEXIST) {
		return -1, fmt.Errorf("cannot make %s: %w", path, err)
	}
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR):
		return -1, fmt.Errorf("%s is not a directory: not used", path)
	case err != nil:
		return -1, fmt.Errorf("cannot open %s: %w", path, err)
	}
	if err := private(fd, path, uid, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// devOf is the device of path, or of its nearest ancestor that exists
// (where it would be made).
func devOf(path string) (uint64, bool) {
	for p := path; ; p = filepath.Dir(p) {
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil {
			return uint64(st.Dev), true
		}
		if p == filepath.Dir(p) {
			return 0, false
		}
	}
}

// topOf opens the top directory of the file system dev that holds the
// directory dirfd, found through "..", not by path, so that no directory
// renamed meanwhile can stand for it: the highest on dev, not past the
// root of a mount. levels is how far above dirfd it is.
func topOf(dirfd int, dev uint64) (fd, levels int, err error) {
	cur, err := unix.Openat(dirfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, 0, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(cur, &st); err != nil {
		unix.Close(cur)
		return -1, 0, err
	}
	for !mountRoot(cur) {
		up, err := unix.Openat(cur, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			break
		}
		var ust unix.Stat_t
		if unix.Fstat(up, &ust) != nil || uint64(ust.Dev) != dev || ust.Ino == st.Ino && ust.Dev == st.Dev {
			unix.Close(up)
			break
		}
		unix.Close(cur)
		cur, st = up, ust
		levels++
	}
	return cur, levels, nil
}

// openTrash makes the trash's files and info directories in the trash
// trashfd (at path) if need be and opens them, no link followed, each
// the user's alone; the files directory must be on dev, so that the
// entry is renamed, never copied.
func openTrash(trashfd int, path, top string, dev uint64, uid int) (*place, error) {
	open := func(name string) (int, error) {
		p := filepath.Join(path, name)
		if err := unix.Mkdirat(trashfd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, fmt.Errorf("cannot make %s: %w", p, err)
		}
		fd, err := unix.Openat(trashfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, fmt.Errorf("cannot open %s: %w", p, err)
		}
		if err := private(fd, p, uid, false); err != nil {
			unix.Close(fd)
			return -1, err
		}
		return fd, nil
	}
	files, err := open("files")
	if err != nil {
		return nil, err
	}
	info, err := open("info")
	if err != nil {
		unix.Close(files)
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(files, &st); err != nil || uint64(st.Dev) != dev {
		unix.Close(files)
		unix.Close(info)
		return nil, fmt.Errorf("the trash %s is not on the entry's file system: not moved", path)
	}
	return &place{files: files, info: info, path: path, top: top}, nil
}
