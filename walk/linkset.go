package walk

import (
	"sync"

	"github.com/pbednarcik/flexreaddir/frd"
)

// A LinkSet remembers files by their identity (device and inode), for
// counting a file with several hard links once. It is safe for concurrent
// use and sharded, so that workers rarely wait on one another. The zero
// value is not ready: use NewLinkSet. Options.HardLinksOnce keeps one per
// walk; a program that counts across several walks, as du does across its
// arguments, keeps its own.
type LinkSet struct {
	shards [64]struct {
		mu   sync.Mutex
		seen map[frd.ID]struct{}
		_    [40]byte // keep shards on separate cache lines
	}
}

// NewLinkSet returns an empty LinkSet.
func NewLinkSet() *LinkSet {
	s := new(LinkSet)
	for i := range s.shards {
		s.shards[i].seen = make(map[frd.ID]struct{})
	}
	return s
}

// Seen records (dev, ino) and reports whether it was recorded before.
func (s *LinkSet) Seen(dev, ino uint64) bool {
	k := frd.ID{Dev: dev, Ino: ino}
	h := (ino ^ dev*0x9e3779b97f4a7c15) * 0x9e3779b97f4a7c15
	sh := &s.shards[h>>58]
	sh.mu.Lock()
	_, ok := sh.seen[k]
	if !ok {
		sh.seen[k] = struct{}{}
	}
	sh.mu.Unlock()
	return ok
}
