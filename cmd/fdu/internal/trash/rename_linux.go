package trash

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames without ever replacing an entry of the trash;
// where the file system has no RENAME_NOREPLACE, a check just before.
func renameNoReplace(fromfd int, from string, tofd int, to string) error {
	err := unix.Renameat2(fromfd, from, tofd, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return renameChecked(fromfd, from, tofd, to)
	}
	return err
}
