// Package synthfs is a read-only file system of N entries computed from a
// shape, never stored: each entry's name, size and time follow from its
// inode number. Served through FUSE, it gives the benchmarks trees of 10^7
// and 10^8 entries that no disk or tmpfs of this size holds, and the tests
// a tree slow on purpose (a delay per directory listed).
package synthfs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// Tree is a shape laid out by inode: the directories level by level from
// the root (inode 1), then the files level by level, each directory's
// together.
type Tree struct {
	shape    treegen.Shape
	dirs     []uint64 // directories at each level
	dirBase  []uint64 // the first directory inode of each level
	fileBase []uint64 // the first file inode of each level
	end      uint64   // one past the last inode
}

// New lays out s (its Symlinks and HardLinks are not made).
func New(s treegen.Shape) *Tree {
	t := &Tree{shape: s}
	next, count := uint64(1), uint64(1)
	for l := range s.Levels {
		t.dirs = append(t.dirs, count)
		t.dirBase = append(t.dirBase, next)
		next += count
		count *= uint64(t.fanout(l))
	}
	for l := range s.Levels {
		t.fileBase = append(t.fileBase, next)
		next += t.dirs[l] * uint64(t.files(l))
	}
	t.end = next
	return t
}

// Entries is the number of entries below the root.
func (t *Tree) Entries() uint64 { return t.end - 2 }

func (t *Tree) fanout(l int) int {
	if l+1 >= t.shape.Levels {
		return 0
	}
	return at(t.shape.Fanout, l)
}

func (t *Tree) files(l int) int { return at(t.shape.Files, l) }

func at(xs []int, i int) int {
	if len(xs) == 0 {
		return 0
	}
	return xs[min(i, len(xs)-1)]
}

// node is an inode placed: a directory (level, index among the level's
// directories) or a file (level, its directory's index, its own).
type node struct {
	dir       bool
	level     int
	index     uint64 // the directory's, or the file's directory's
	fileInDir int
}

// locate is where ino is, false for no inode of the tree.
func (t *Tree) locate(ino uint64) (node, bool) {
	if ino < 1 || ino >= t.end {
		return node{}, false
	}
	for l := len(t.dirBase) - 1; l >= 0; l-- {
		if base := t.fileBase[l]; ino >= base {
			per := uint64(t.files(l))
			return node{level: l, index: (ino - base) / per, fileInDir: int((ino - base) % per)}, true
		}
	}
	for l := len(t.dirBase) - 1; l >= 0; l-- {
		if ino >= t.dirBase[l] {
			return node{dir: true, level: l, index: ino - t.dirBase[l]}, true
		}
	}
	return node{}, false
}

// count is the entries of the directory n: its files, then its subdirectories.
func (t *Tree) count(n node) int { return t.files(n.level) + t.fanout(n.level) }

// child is the k-th entry of the directory n: its inode and name.
func (t *Tree) child(n node, k int) (uint64, string) {
	if f := t.files(n.level); k < f {
		ino := t.fileBase[n.level] + n.index*uint64(f) + uint64(k)
		return ino, t.fileName(k, ino)
	} else {
		k -= f
	}
	sub := n.index*uint64(t.fanout(n.level)) + uint64(k)
	return t.dirBase[n.level+1] + sub, fmt.Sprintf("d%03d", k)
}

var exts = []string{"go", "c", "h", "txt", "json", "md", "js", "png"}

// fileName is treegen's kind of name, its hex and extension from ino.
func (t *Tree) fileName(k int, ino uint64) string {
	h := hash(ino)
	return fmt.Sprintf("f%05d-%x.%s", k, h&0xffff, exts[(h>>16)%uint64(len(exts))])
}

// lookup is the inode of the entry named name in the directory n.
func (t *Tree) lookup(n node, name string) (uint64, bool) {
	var k int
	var err error
	switch {
	case strings.HasPrefix(name, "d"):
		k, err = strconv.Atoi(name[1:])
		k += t.files(n.level)
	case strings.HasPrefix(name, "f") && len(name) > 6:
		k, err = strconv.Atoi(name[1:6])
	default:
		return 0, false
	}
	if err != nil || k < 0 || k >= t.count(n) {
		return 0, false
	}
	ino, want := t.child(n, k)
	return ino, want == name
}

// hash is a file's sizes and name drawn from its inode: splitmix64.
func hash(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// size is the file ino's length, from 0 to the shape's MaxSize.
func (t *Tree) size(ino uint64) uint64 {
	if t.shape.MaxSize <= 0 {
		return 0
	}
	return hash(ino^0x5bd1e995) % uint64(t.shape.MaxSize+1)
}

// Scaled is a tree shaped like treegen's Million: ten subdirectories a
// level down to directories of 1,000 files, as many levels as make n
// entries or the next power of ten above (10^6: Million's 1,001,110;
// 10^7 and 10^8: a level more each).
func Scaled(n uint64, maxSize int) treegen.Shape {
	levels := 1
	for leaves := uint64(1); leaves*1000 < n; leaves *= 10 {
		levels++
	}
	fanout := make([]int, levels)
	files := make([]int, levels)
	for l := range levels - 1 {
		fanout[l] = 10
	}
	files[levels-1] = 1000
	return treegen.Shape{Name: fmt.Sprintf("synth-%d", n), Levels: levels, Fanout: fanout, Files: files, MaxSize: maxSize}
}
