//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package walk

import (
	"context"
	"os"

	"github.com/pbednarcik/flexreaddir/internal/dirfd"
)

// DirsFile is Dirs for the directory open as root, which the walk lists
// and opens everything else relative to, instead of opening a path: a
// caller that opened the root itself, without following a symbolic link,
// and checked what it opened (tree's clone and permission walks), walks
// that very directory, whatever is renamed meanwhile. root.Name() names it
// in paths. The walk reads through a descriptor of its own, opened from
// root's ("." relative to it, so an O_PATH descriptor will do); root stays
// open, its caller's to close. Unix only.
func DirsFile(ctx context.Context, root *os.File, opts *Options, fn DirFunc) error {
	return dirs(ctx, root.Name(), func() (handle, error) {
		return dirfd.OpenAt(int(root.Fd()), ".", false, root.Name())
	}, opts, fn)
}
