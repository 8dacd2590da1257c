//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package snapshot

import "github.com/pbednarcik/flexreaddir/internal/dirfd"

// lstatAt is one fstatat of name in d, without following a link.
func lstatAt(d dirFile, name string) (Entry, error) {
	st, err := dirfd.Fstatat(d.fd, d.path, name, false)
	if err != nil {
		return Entry{}, err
	}
	return fromStat(&st), nil
}
