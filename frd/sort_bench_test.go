package frd

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// benchEntries is n names in a shuffled order, as a hashed directory lists
// them, their bytes in one string in that order, as a listing holds them.
func benchEntries(n int) []Entry {
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("file-%06d.txt", i))
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	all := strings.Join(names, "")
	es := make([]Entry, 0, n)
	for _, name := range names {
		es = append(es, Entry{Name: all[:len(name)]})
		all = all[len(name):]
	}
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

// FuzzSortNames: sortNames orders any names as strings.Compare does (with
// prefixes of each other, empty names, bytes past 0x7f, long shared
// prefixes, names equal in their 8 bytes past the shared prefix, repeats).
func FuzzSortNames(f *testing.F) {
	f.Add([]byte("b\x00a\x00ab\x00\x00abc\x00ab\x00\xff\x00file-0001\x00file-0010\x00file-001"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, repeat uint8) {
		var es []Entry
		for _, name := range strings.Split(string(data), "\x00") {
			for range int(repeat%4) + 1 {
				es = append(es, Entry{Name: name})
			}
		}
		idx := make([]uint32, len(es))
		for i := range idx {
			idx[i] = uint32(i)
		}
		sortNames(idx, es)
		for k := 1; k < len(idx); k++ {
			if es[idx[k-1]].Name > es[idx[k]].Name {
				t.Fatalf("%q before %q", es[idx[k-1]].Name, es[idx[k]].Name)
			}
		}
		seen := make([]bool, len(idx))
		for _, i := range idx {
			if seen[i] {
				t.Fatalf("index %d twice", i)
			}
			seen[i] = true
		}
	})
}

func TestSortNamesLarge(t *testing.T) {
	for _, n := range []int{0, 1, 13, 1000, 100000} {
		es := benchEntries(n)
		es = append(es, Entry{Name: "file-"}, Entry{Name: ""}, Entry{Name: "file-000010.txt~"})
		// Ties past the first 8 bytes, and names no kernel gives (a NUL,
		// repeats), more of them than an insertion sort takes.
		for i := range 40 {
			es = append(es, Entry{Name: fmt.Sprintf("x-long-shared-part-%03d", i)},
				Entry{Name: "nul"}, Entry{Name: fmt.Sprintf("nul\x00%d", i%3)})
		}
		got := slices.Clone(es)
		sortUnique(got)
		want := slices.Clone(es)
		slices.SortFunc(want, CompareName)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: not strings.Compare's order", n)
		}
	}
}

// TestSharedPrefix compares strings of every length to 40 differing at
// every place, or not at all, with a byte loop.
func TestSharedPrefix(t *testing.T) {
	for n := range 41 {
		base := strings.Repeat("ab", 21)[:n]
		for m := range 41 {
			other := []byte(strings.Repeat("ab", 21)[:m])
			for d := -1; d < m; d++ {
				if d >= 0 {
					other[d] ^= 0x80
				}
				want := 0
				for want < min(n, m) && base[want] == other[want] {
					want++
				}
				if got := sharedPrefix(base, string(other)); got != want {
					t.Fatalf("sharedPrefix(%q, %q) = %d, want %d", base, other, got, want)
				}
				if d >= 0 {
					other[d] ^= 0x80
				}
			}
		}
	}
}

// TestCommonPrefix finds the prefix names share, of every length to 20,
// whichever name differs first, against the names compared pairwise.
func TestCommonPrefix(t *testing.T) {
	for n := range 21 {
		for _, odd := range []int{0, 1, 5} {
			var es []Entry
			var a []keyed
			for i := range 6 {
				name := strings.Repeat("x", n) + fmt.Sprintf("%c-tail", 'a'+i)
				if i == odd && n > 0 {
					name = name[:n-1] + "y" + name[n:]
				}
				es = append(es, Entry{Name: name})
				a = append(a, keyed{i: uint32(i)})
			}
			want := len(es[0].Name)
			for _, e := range es[1:] {
				want = min(want, sharedPrefix(es[0].Name, e.Name))
			}
			if got := commonPrefix(a, es); got != want {
				t.Fatalf("n %d, odd %d: commonPrefix = %d, want %d", n, odd, got, want)
			}
		}
	}
}

// TestCommonPrefixWordEdges: names of 7 to 18 bytes, of one length or two,
// differing at each byte or not at all, where the two-word comparison for
// prefixes of 8 to 16 bytes starts and stops covering every byte (a 17-byte
// name's two words leave out byte 8).
func TestCommonPrefixWordEdges(t *testing.T) {
	const pattern = "abcdefghijklmnopqrs"
	for n := 7; n <= 18; n++ {
		for m := 7; m <= 18; m++ {
			for d := -1; d < m; d++ {
				other := []byte(pattern[:m])
				if d >= 0 {
					other[d] = 'Z'
				}
				es := []Entry{{Name: pattern[:n]}, {Name: string(other)}, {Name: pattern[:n]}}
				want := 0
				for want < min(n, m) && es[0].Name[want] == other[want] {
					want++
				}
				if got := commonPrefix([]keyed{{i: 0}, {i: 1}, {i: 2}}, es); got != want {
					t.Fatalf("commonPrefix(%q, %q) = %d, want %d", es[0].Name, other, got, want)
				}
			}
		}
	}
	// Sorted: names of 16 and 17 bytes alike but for byte 8, given in
	// descending order.
	for _, n := range []int{8, 9, 16, 17} {
		var es []Entry
		for c := byte('z'); c >= 'v'; c-- {
			name := []byte(pattern[:n])
			name[min(8, n-1)] = c
			es = append(es, Entry{Name: string(name)})
		}
		want := slices.Clone(es)
		slices.SortFunc(want, CompareName)
		sortUnique(es)
		for i := range es {
			if es[i].Name != want[i].Name {
				t.Errorf("%d-byte names differing at one byte: %q sorted at %d, want %q", n, es[i].Name, i, want[i].Name)
			}
		}
	}
}

// TestSortNamesShortTails: names of at least 8 bytes that end 1 to 7
// bytes past their shared prefix take their key from their last 8 bytes,
// shifted: each cut from 1 to 7, behind prefixes of 1, 5, 8 and 12 bytes,
// in directories an insertion sort takes (20 names) and a radix sort
// takes (60).
func TestSortNamesShortTails(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, prefix := range []string{"x", "file-", "file-000", "file-0000000"} {
		for _, n := range []int{20, 60} {
			var es []Entry
			seen := map[string]bool{}
			for len(es) < n {
				tail := 1 + r.IntN(7)
				if len(prefix)+tail < 8 {
					continue
				}
				b := []byte(prefix)
				for range tail {
					b = append(b, "ab\xff"[r.IntN(3)])
				}
				if name := string(b); !seen[name] {
					seen[name] = true
					es = append(es, Entry{Name: name})
				}
			}
			got := slices.Clone(es)
			sortUnique(got)
			want := slices.Clone(es)
			slices.SortFunc(want, CompareName)
			if !slices.Equal(got, want) {
				t.Errorf("prefix %q, %d names: %q, want %q", prefix, n, names(got), names(want))
			}
		}
	}
}

// TestCommonPrefixOfNamesInOneString: a name that is another's first bytes,
// both cut from one string (as a listing's buffer holds names), shares
// all of its bytes and no more: the bytes after it in memory are no part
// of it.
func TestCommonPrefixOfNamesInOneString(t *testing.T) {
	all := "abcdefghijklmnopq"
	for n := 8; n <= 16; n++ {
		long, short := all[:n], all[:n-1]
		for _, es := range [][]Entry{{{Name: long}, {Name: short}}, {{Name: short}, {Name: long}}} {
			a := []keyed{{i: 0}, {i: 1}}
			if got := commonPrefix(a, es); got != n-1 {
				t.Errorf("%q and %q: common prefix %d, want %d", es[0].Name, es[1].Name, got, n-1)
			}
			idx := []uint32{0, 1}
			sortNames(idx, es)
			if es[idx[0]].Name != short {
				t.Errorf("%q sorted after %q", short, long)
			}
		}
	}
}

// names is each entry's name, in order.
func names(es []Entry) []string {
	var s []string
	for _, e := range es {
		s = append(s, e.Name)
	}
	return s
}
