//go:build unix && !linux

package dutree

// statAt is fstatAt here: these systems tell no mount's root or id (not
// verified on them): a mount of another file system is still told by its
// device; a bind or null mount of the same one is not.
func statAt(fd int, name string) (diskEntry, error) { return fstatAt(fd, name) }

// exactTimes is false here: how each file system stamps its times is not
// known (not verified), so they are compared with a margin.
func exactTimes(int, *diskEntry) bool { return false }
