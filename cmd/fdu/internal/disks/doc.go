// Package disks lists the mounted file systems that hold files, with their
// size, use and free space, for fdu -i's list of disks (as gdu -d shows
// it). Linux reads /proc/self/mountinfo and asks statfs; elsewhere List
// says it is not supported (macOS and Windows: not built yet).
package disks
