//go:build unix

package trash

import (
	"errors"
	"fmt"
	"os"
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
// entry's file system can be used.
func Put(dirfd int, name, path string) (string, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return "", err
	}
	dir := realDir(dirfd, filepath.Dir(path))
	dev := uint64(st.Dev)
	trashDir, info, err := pick(dev, dir)
	if err != nil {
		return "", err
	}
	orig := filepath.Join(dir, name)
	if info != "" { // a $topdir trash: the path relative to $topdir
		rel, err := filepath.Rel(info, orig)
		if err == nil && rel != ".." && !filepath.IsAbs(rel) && len(rel) > 2 && rel[:3] != "../" {
			orig = rel
		}
	}
	files, infos, err := openTrash(trashDir, dev)
	if err != nil {
		return "", err
	}
	defer unix.Close(files)
	defer unix.Close(infos)
	text := infoText(orig, time.Now())
	for i := 1; ; i++ {
		as := uniqueName(name, i)
		f, err := unix.Openat(infos, as+".trashinfo", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot write in %s: %w", filepath.Join(trashDir, "info"), err)
		}
		_, err = unix.Write(f, []byte(text))
		if cerr := unix.Close(f); err == nil {
			err = cerr
		}
		if err == nil {
			err = renameNoReplace(dirfd, name, files, as)
		}
		if errors.Is(err, unix.EEXIST) || errors.Is(err, unix.ENOTEMPTY) {
			unix.Unlinkat(infos, as+".trashinfo", 0) // a stray file of that name: the next name
			continue
		}
		if err != nil {
			unix.Unlinkat(infos, as+".trashinfo", 0)
			if errors.Is(err, unix.EXDEV) {
				return "", fmt.Errorf("the trash %s is on another mount: not moved", trashDir)
			}
			return "", err
		}
		return filepath.Join(trashDir, "files", as), nil
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

// Home is the home trash: $XDG_DATA_HOME/Trash, or ~/.local/share/Trash.
func Home() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "Trash")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".local", "share", "Trash")
}

// pick is the trash for an entry on the device dev in the directory dir:
// the home trash if it is on that device, else a trash at the top of the
// file system, with that top (to which the original path is relative).
func pick(dev uint64, dir string) (trash, topdir string, err error) {
	home := Home()
	if d, ok := devOf(home); ok && d == dev {
		return home, "", nil
	}
	top := topOf(dir, dev)
	uid := os.Getuid()
	// An administrator's $topdir/.Trash, sticky and no link, holds one
	// directory per user.
	admin := filepath.Join(top, ".Trash")
	var st unix.Stat_t
	if unix.Lstat(admin, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR && st.Mode&unix.S_ISVTX != 0 {
		mine := filepath.Join(admin, strconv.Itoa(uid))
		if err := ownDir(mine, uid); err == nil {
			return mine, top, nil
		}
	}
	mine := filepath.Join(top, ".Trash-"+strconv.Itoa(uid))
	if err := ownDir(mine, uid); err != nil {
		return "", "", fmt.Errorf("no trash on this file system (the home trash %s is on another): %w", home, err)
	}
	return mine, top, nil
}

// ownDir makes dir, mode 0700, or checks that it is a directory of uid's,
// no link, that nobody else may enter.
func ownDir(dir string, uid int) error {
	err := unix.Mkdir(dir, 0o700)
	if err != nil && !errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("cannot make %s: %w", dir, err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return fmt.Errorf("%s is not a directory: not used", dir)
	case int(st.Uid) != uid:
		return fmt.Errorf("%s belongs to uid %d: not used", dir, st.Uid)
	case st.Mode&0o777 != 0o700:
		return fmt.Errorf("%s has mode %o, not 700: not used", dir, st.Mode&0o777)
	}
	return nil
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

// topOf is the top directory of the file system dev that holds dir: the
// highest of dir's ancestors on dev.
func topOf(dir string, dev uint64) string {
	top := dir
	for p := dir; p != filepath.Dir(p); {
		p = filepath.Dir(p)
		var st unix.Stat_t
		if unix.Stat(p, &st) != nil || uint64(st.Dev) != dev {
			break
		}
		top = p
	}
	return top
}

// openTrash makes the trash's files and info directories if need be and
// opens them, no link followed; the files directory must be on dev, so
// that the entry is renamed, never copied.
func openTrash(trash string, dev uint64) (files, info int, err error) {
	if err := os.MkdirAll(trash, 0o700); err != nil {
		return -1, -1, err
	}
	open := func(name string) (int, error) {
		p := filepath.Join(trash, name)
		if err := unix.Mkdir(p, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, fmt.Errorf("cannot make %s: %w", p, err)
		}
		fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, fmt.Errorf("cannot open %s: %w", p, err)
		}
		return fd, nil
	}
	if files, err = open("files"); err != nil {
		return -1, -1, err
	}
	if info, err = open("info"); err != nil {
		unix.Close(files)
		return -1, -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(files, &st); err != nil || uint64(st.Dev) != dev {
		unix.Close(files)
		unix.Close(info)
		return -1, -1, fmt.Errorf("the trash %s is not on the entry's file system: not moved", trash)
	}
	return files, info, nil
}
