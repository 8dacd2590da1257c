package report

import (
	"container/heap"
	"fmt"
	"io"

	"github.com/pbednarcik/flexreaddir/cmd/internal/termtext"
)

// printLargest prints the n largest files, largest first.
func printLargest(cfg *Config, out io.Writer, files []fileSize, n int) {
	h := &sizeHeap{}
	for _, f := range files {
		heap.Push(h, f)
		if h.Len() > n {
			heap.Pop(h)
		}
	}
	top := make([]fileSize, h.Len())
	for i := len(top) - 1; i >= 0; i-- {
		top[i] = heap.Pop(h).(fileSize)
	}
	// A terminal is shown names escaped, as the tree view shows them; a
	// pipe or a file gets their bytes.
	show := func(p string) string { return p }
	if isTerminal(out) {
		show = termtext.Escape
	}
	for _, f := range top {
		fmt.Fprintf(out, "%s\t%s\n", cfg.Unit.Format(f.size), show(f.path))
	}
}

// sizeHeap is a min-heap of files by size (then path, for a stable order).
type sizeHeap []fileSize

func (h sizeHeap) Len() int { return len(h) }
func (h sizeHeap) Less(i, j int) bool {
	if h[i].size != h[j].size {
		return h[i].size < h[j].size
	}
	return h[i].path > h[j].path
}
func (h sizeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *sizeHeap) Push(x any)   { *h = append(*h, x.(fileSize)) }
func (h *sizeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
