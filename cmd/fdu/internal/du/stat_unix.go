//go:build unix

package du

import (
	"golang.org/x/sys/unix"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

func statOf(cfg *Config, st *unix.Stat_t) Stat {
	u := Usage{Inodes: 1}
	if cfg.Apparent {
		u.Size = uint64(max(st.Size, 0))
	} else {
		u.Size = uint64(st.Blocks) * 512
	}
	u.TMax = statTime(cfg.TimeType, st)
	return Stat{Use: u, Dev: uint64(st.Dev), Ino: uint64(st.Ino), IsDir: st.Mode&unix.S_IFMT == unix.S_IFDIR, Nlink: uint64(st.Nlink)}
}

// lstat stats path without following a final symbolic link.
func lstat(cfg *Config, path string) (Stat, bool) {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return Stat{}, false
	}
	return statOf(cfg, &st), true
}

// stat stats path, following a symbolic link when follow is set.
func stat(cfg *Config, path string, follow bool) (Stat, error) {
	var st unix.Stat_t
	var err error
	if follow {
		err = unix.Stat(path, &st)
	} else {
		err = unix.Lstat(path, &st)
	}
	if err != nil {
		return Stat{}, err
	}
	return statOf(cfg, &st), nil
}

// statTime is st's time of the given --time type.
func statTime(timeType string, st *unix.Stat_t) units.Stamp {
	switch timeType {
	case "ctime":
		return units.NewStamp(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	case "atime":
		return units.NewStamp(int64(st.Atim.Sec), int64(st.Atim.Nsec))
	}
	return units.NewStamp(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
}

// timeAt is that time of name in the open directory fd (following a
// symbolic link when follow is set), or of fd itself when name is empty;
// the zero stamp if it cannot be stat'ed.
func timeAt(timeType string, fd uintptr, name string, follow bool) units.Stamp {
	var st unix.Stat_t
	var err error
	switch {
	case name == "":
		err = unix.Fstat(int(fd), &st)
	case follow:
		err = unix.Fstatat(int(fd), name, &st, 0)
	default:
		err = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return units.Stamp{}
	}
	return statTime(timeType, &st)
}

// inodeOf is path's inode number, not following a final link; 0 if it
// cannot be stat'ed.
func inodeOf(path string) uint64 {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return 0
	}
	return uint64(st.Ino)
}
