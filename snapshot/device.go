package snapshot

import "time"

// unknownDevice is a file system nothing is known of: its times are
// trusted to 2 s (FAT's step, the coarsest in use), its directories are
// listed every time, and its inode numbers are not taken to survive a
// rename.
func unknownDevice(id uint64) Device {
	return Device{ID: id, Granularity: 2 * time.Second}
}
