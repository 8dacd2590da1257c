package frd

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func benchEntries(n int) []Entry {
	var es []Entry
	for i := range n {
		es = append(es, Entry{Name: fmt.Sprintf("file-%06d.txt", i)})
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	return es
}

func BenchmarkSortEntries(b *testing.B) {
	for _, n := range []int{10, 1000} {
		src := benchEntries(n)
		es := make([]Entry, n)
		b.Run(fmt.Sprintf("n=%d/impl=SortFunc", n), func(b *testing.B) {
			for b.Loop() {
				copy(es, src)
				slices.SortFunc(es, CompareName)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=sortUnique", n), func(b *testing.B) {
			for b.Loop() {
				copy(es, src)
				sortUnique(es)
			}
		})
	}
}
