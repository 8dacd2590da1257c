package walk

import "testing"

// TestLinkSetSpreads: files met together, inodes in a row on one device
// or one inode number on many devices, fall in many of the LinkSet's 64
// shards, so that workers recording them rarely wait on the same lock.
func TestLinkSetSpreads(t *testing.T) {
	used := func(ids func(i uint64) (dev, ino uint64)) int {
		s := NewLinkSet()
		for i := range uint64(64) {
			if s.Seen(ids(i)) {
				t.Fatalf("file %d seen before its first record", i)
			}
		}
		n := 0
		for i := range s.shards {
			if len(s.shards[i].seen) > 0 {
				n++
			}
		}
		return n
	}
	inRow := used(func(i uint64) (uint64, uint64) { return 2049, 1000 + i })
	devices := used(func(i uint64) (uint64, uint64) { return 2049 + i<<8, 1000 })
	t.Logf("64 inodes in a row: %d shards; one inode on 64 devices: %d", inRow, devices)
	if inRow < 32 || devices < 32 {
		t.Errorf("64 files in %d and %d shards; want at least 32 of 64 each", inRow, devices)
	}
}
