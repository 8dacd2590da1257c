//go:build !linux

package snapshot

import "time"

// Elsewhere no file system is known: every one gets a window of 2 s, its
// directories are listed every time, and no moves are looked for.

func classifyDir(d dirFile, id uint64) Device { return unknownDevice(id) }

func classifyAt(d dirFile, name string, id uint64) Device { return unknownDevice(id) }

// clockStep is a guess where the kernel's clock step is not known.
func clockStep() time.Duration { return 10 * time.Millisecond }
