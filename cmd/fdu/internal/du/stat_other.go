//go:build !unix

package du

import (
	"os"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// Without Unix stat fields, sizes are apparent sizes and hard links are
// not recognized.

func statOf(fi os.FileInfo) Stat {
	return Stat{Use: Usage{Size: uint64(max(fi.Size(), 0)), Inodes: 1, TMax: units.NewStamp(fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond()))}, IsDir: fi.IsDir(), Nlink: 1}
}

func lstat(_ *Config, path string) (Stat, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return Stat{}, false
	}
	return statOf(fi), true
}

func stat(_ *Config, path string, follow bool) (Stat, error) {
	get := os.Lstat
	if follow {
		get = os.Stat
	}
	fi, err := get(path)
	if err != nil {
		return Stat{}, err
	}
	return statOf(fi), nil
}

func timeAt(string, uintptr, string, bool) units.Stamp { return units.Stamp{} }

func inodeOf(string) uint64 { return 0 }
