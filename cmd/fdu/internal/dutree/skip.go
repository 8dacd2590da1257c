package dutree

import "sync"

// kernfsCache keeps, for each device met, whether it is a kernel file
// system: one statfs a mount, not one a directory.
type kernfsCache struct {
	mu  sync.Mutex
	dev map[uint64]bool
}

// is reports whether the directory name in parent is on a kernel file
// system; dev is its device (0: unknown, then not cached).
func (c *kernfsCache) is(parent int, name string, dev uint64) bool {
	if dev != 0 {
		c.mu.Lock()
		v, ok := c.dev[dev]
		c.mu.Unlock()
		if ok {
			return v
		}
	}
	v := kernFS(parent, name)
	if dev != 0 {
		c.mu.Lock()
		if c.dev == nil {
			c.dev = map[uint64]bool{}
		}
		c.dev[dev] = v
		c.mu.Unlock()
	}
	return v
}
