//go:build !linux

package disks

import "errors"

// list is not written here yet: macOS (getfsstat) and Windows
// (GetLogicalDrives) would give the list; not built, not verified.
func list() ([]Disk, error) {
	return nil, errors.New("the list of disks is made on Linux only")
}
