//go:build unix

package trash

import "golang.org/x/sys/unix"

// renameChecked renames unless to exists: the trash is the user's own
// directory, where only they make names.
func renameChecked(fromfd int, from string, tofd int, to string) error {
	var st unix.Stat_t
	if unix.Fstatat(tofd, to, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		return unix.EEXIST
	}
	return unix.Renameat(fromfd, from, tofd, to)
}
