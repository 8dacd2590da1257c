//go:build !unix

package trash

import "errors"

// Put is not supported here: the trash of Windows and of other systems
// is not the freedesktop.org one.
func Put(dirfd int, name, path string, same func(fd int, name string) error) (string, error) {
	return "", errors.New("moving to the trash is not supported on this system")
}
