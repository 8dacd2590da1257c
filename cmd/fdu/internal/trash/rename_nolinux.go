//go:build unix && !linux

package trash

// renameNoReplace renames unless to exists (no RENAME_NOREPLACE here).
func renameNoReplace(fromfd int, from string, tofd int, to string) error {
	return renameChecked(fromfd, from, tofd, to)
}
