package frd

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// keyed is an index into a listing and 8 bytes of its name, big-endian,
// taken past the prefix every name being sorted shares.
type keyed struct {
	key uint64
	i   uint32
}

// keyedPool lends sortNames its keys and a scratch half for the radix sort.
var keyedPool = sync.Pool{New: func() any { return new([]keyed) }}

// sortNames sorts idx, indexes into entries, by their names in byte order
// (strings.Compare's). A directory's names share long prefixes and differ
// in a few bytes after them (file-000123.dat), so the names are cut to 8
// bytes past their common prefix and those integers radix sorted, each byte
// position only if it differs somewhere; names equal in those 8 bytes are
// sorted again past them.
func sortNames(idx []uint32, entries []Entry) {
	p := keyedPool.Get().(*[]keyed)
	ks := slices.Grow((*p)[:0], 2*len(idx))[:2*len(idx)]
	a, tmp := ks[:len(idx)], ks[len(idx):]
	for k, i := range idx {
		a[k].i = i
	}
	sortKeyed(a, tmp, entries, commonPrefix(a, entries), 0)
	for k := range a {
		idx[k] = a[k].i
	}
	*p = ks[:0]
	keyedPool.Put(p)
}

// maxKeyLevels is how many keys deep ties are radix sorted.
const maxKeyLevels = 2

// smallSort is the length up to which an insertion sort beats the radix
// sort's 8 KiB of counts.
const smallSort = 32

// sortKeyed sorts a, whose names share their first p bytes, by name, tmp
// being scratch of the same length; level counts the 8-byte keys taken so
// far.
func sortKeyed(a, tmp []keyed, entries []Entry, p, level int) {
	for k := range a {
		a[k].key = key8(entries[a[k].i].Name, p)
	}
	if len(a) <= smallSort {
		insertionKeyed(a, entries, p)
		return
	}
	radix8(a, tmp)
	for s := 0; s < len(a); {
		e := s + 1
		for e < len(a) && a[e].key == a[s].key {
			e++
		}
		if e-s > 1 {
			sortTies(a[s:e], tmp[s:e], entries, p, level)
		}
		s = e
	}
}

// sortTies sorts names equal in their 8 bytes past p. Unless they hold a
// NUL or repeat (neither comes from a kernel), they agree on those 8 bytes
// and so share a prefix at least p+8 long: the recursion moves on, for a
// level or two. Names that tie again and again (crafted ones, alike in
// every 8 bytes) are sorted by comparison, which the radix passes' random
// reads would be slower than.
func sortTies(a, tmp []keyed, entries []Entry, p, level int) {
	if len(a) <= smallSort {
		insertionKeyed(a, entries, p)
		return
	}
	if level < maxKeyLevels {
		if q := commonPrefix(a, entries); q >= p+8 {
			sortKeyed(a, tmp, entries, q, level+1)
			return
		}
	}
	slices.SortFunc(a, func(x, y keyed) int {
		return strings.Compare(entries[x.i].Name[p:], entries[y.i].Name[p:])
	})
}

// commonPrefix is the length of the prefix all of a's names share.
func commonPrefix(a []keyed, entries []Entry) int {
	if len(a) == 0 {
		return 0
	}
	first := entries[a[0].i].Name
	n := len(first)
	for _, k := range a[1:] {
		s := entries[k.i].Name
		if 8 <= n && n <= 16 && n <= len(s) && load64(s) == load64(first) && load64(s[n-8:]) == load64(first[n-8:]) {
			// Two words, overlapping, cover a prefix of 8 to 16 bytes:
			// most names share theirs with the first in full.
			continue
		}
		if n = sharedPrefix(first[:n], s); n == 0 {
			break
		}
	}
	return n
}

// sharedPrefix is the length of the prefix s and t share, compared 8 bytes
// at a time, the last word ending where the shorter one ends.
func sharedPrefix(s, t string) int {
	n := min(len(s), len(t))
	if n < 8 {
		j := 0
		for j < n && s[j] == t[j] {
			j++
		}
		return j
	}
	for j := 0; j < n; j += 8 {
		j = min(j, n-8)
		if d := load64(s[j:]) ^ load64(t[j:]); d != 0 {
			return j + bits.LeadingZeros64(d)/8
		}
	}
	return n
}

// key8 is s's 8 bytes from p, big-endian, zeros past its end: integers in
// the order of those bytes, a name that ends first sorting first (a name
// holding a NUL there ties, and is sorted by its whole name).
func key8(s string, p int) uint64 {
	switch {
	case len(s)-p >= 8:
		return load64(s[p:])
	case len(s) <= p:
		return 0
	case len(s) >= 8:
		// The name's last 8 bytes, those before p shifted out.
		return load64(s[len(s)-8:]) << (8 * uint(p+8-len(s)))
	}
	var k uint64
	for j := range 8 {
		k <<= 8
		if p+j < len(s) {
			k |= uint64(s[p+j])
		}
	}
	return k
}

// load64 is s's first 8 bytes, big-endian; s has at least 8.
func load64(s string) uint64 {
	return binary.BigEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
}

// less orders x before y: by key, then by the names past p.
func less(x, y keyed, entries []Entry, p int) bool {
	if x.key != y.key {
		return x.key < y.key
	}
	return entries[x.i].Name[p:] < entries[y.i].Name[p:]
}

func insertionKeyed(a []keyed, entries []Entry, p int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && less(a[j], a[j-1], entries, p); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// radix8 sorts a by key, least significant byte first, counting and
// moving by only the byte positions where the keys differ; tmp is scratch.
func radix8(a, tmp []keyed) {
	var differ uint64
	for _, k := range a {
		differ |= k.key ^ a[0].key
	}
	src, dst := a, tmp
	for b := range 8 {
		shift := uint(8 * b)
		if byte(differ>>shift) == 0 {
			continue
		}
		var c [256]uint32
		for _, k := range src {
			c[byte(k.key>>shift)]++
		}
		var sum uint32
		for v, n := range c {
			c[v] = sum
			sum += n
		}
		for _, k := range src {
			v := byte(k.key >> shift)
			dst[c[v]] = k
			c[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}
