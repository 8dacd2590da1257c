package walk

// inOrder is the waiting directories as a heap, the first in a one-worker
// walk's order at its root (Options.InOrder).
type inOrder []*node

func (h inOrder) Len() int           { return len(h) }
func (h inOrder) Less(i, j int) bool { return before(h[i], h[j]) }
func (h inOrder) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *inOrder) Push(x any)        { *h = append(*h, x.(*node)) }

func (h *inOrder) Pop() any {
	old := *h
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return n
}

// before reports whether a walk with one worker visits a before b: depth
// first, each directory's subdirectories in the order listed. The two are
// compared where their paths part, below their last common ancestor. (Of
// two directories waiting neither is above the other: a directory's
// subdirectories are queued once it has been taken.)
func before(a, b *node) bool {
	da, db := a.dir.Depth, b.dir.Depth
	for ; da > db; da-- {
		a = a.parent
	}
	for ; db > da; db-- {
		b = b.parent
	}
	for a.parent != b.parent {
		a, b = a.parent, b.parent
	}
	return a.rank < b.rank
}
