package du

import (
	"cmp"
	"slices"
)

// ftsBatch is the most entries gnulib's fts reads of a directory at once
// (FTS_MAX_READDIR_ENTRIES); it sorts each batch of over ftsSortMin by
// inode number on its own.
const (
	ftsBatch   = 100000
	ftsSortMin = 10000
)

// InDuOrder are d's items in the order du meets them at path: the
// listing's, but in a directory of over 10,000 entries, which fts sorts
// by inode number in the batches of 100,000 it reads them in (not on
// tmpfs).
func (d *Dir) InDuOrder(path string) Items {
	if !d.SortedByInode(path) {
		return d.items
	}
	big := func(i int) bool { return min(d.nentries-i*ftsBatch, ftsBatch) > ftsSortMin }
	return d.items.sortedIn(d.cuts, big, func(a, b Item) int { return cmp.Compare(a.inode(), b.inode()) })
}

// ListedMany reports whether d listed enough entries for du to sort them
// by inode: only then do SortedByInode and InDuOrder read their path.
func (d *Dir) ListedMany() bool { return d.nentries > ftsSortMin }

// SortedByInode reports whether du meets d's items, at path, in inode
// order rather than the listing's.
func (d *Dir) SortedByInode(path string) bool { return d.nentries > ftsSortMin && !isTmpfs(path) }

// inode is the inode number it stands for.
func (it *Item) inode() uint64 {
	if it.dir != nil {
		return it.dir.ino
	}
	return it.ino
}

// sortedIn is l as one chunk, each span between cuts (item counts) sorted
// by cmp, stably, if sort says so of its index.
func (l *Items) sortedIn(cuts []int, sort func(span int) bool, cmp func(a, b Item) int) Items {
	var flat []Item
	for _, c := range l.chunks {
		flat = append(flat, c...)
	}
	start := 0
	for i, end := range append(slices.Clone(cuts), len(flat)) {
		if end > len(flat) || end < start {
			break
		}
		if sort(i) {
			slices.SortStableFunc(flat[start:end], cmp)
		}
		start = end
	}
	return Items{chunks: [][]Item{flat}}
}
