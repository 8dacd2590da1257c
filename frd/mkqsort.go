package frd

// sortNames sorts idx, indexes into entries, by their names in byte order
// (strings.Compare's): a multikey quicksort (Bentley and Sedgewick, 1997),
// which looks at each byte of a shared prefix once per partition rather
// than once per comparison, as a comparison sort does. A directory's names
// share long prefixes (file-000123.dat).
func sortNames(idx []uint32, entries []Entry) {
	mkq(idx, entries, commonPrefix(idx, entries))
}

// commonPrefix is the length of the prefix all the names share: the
// sort starts past it rather than partition on each of its bytes.
func commonPrefix(idx []uint32, entries []Entry) int {
	if len(idx) == 0 {
		return 0
	}
	first := entries[idx[0]].Name
	n := len(first)
	for _, i := range idx[1:] {
		s := entries[i].Name
		n = min(n, len(s))
		j := 0
		for j < n && s[j] == first[j] {
			j++
		}
		n = j
		if n == 0 {
			break
		}
	}
	return n
}

// byteAt is the name's byte at d, or -1 past its end (a shorter name
// sorts first).
func byteAt(entries []Entry, i uint32, d int) int {
	if s := entries[i].Name; d < len(s) {
		return int(s[d])
	}
	return -1
}

func mkq(idx []uint32, entries []Entry, d int) {
	for len(idx) > 12 {
		p := median3(byteAt(entries, idx[0], d), byteAt(entries, idx[len(idx)/2], d), byteAt(entries, idx[len(idx)-1], d))
		// Partition into < p, == p, > p by the byte at d.
		lt, i, gt := 0, 0, len(idx)
		for i < gt {
			switch c := byteAt(entries, idx[i], d); {
			case c < p:
				idx[lt], idx[i] = idx[i], idx[lt]
				lt++
				i++
			case c > p:
				gt--
				idx[gt], idx[i] = idx[i], idx[gt]
			default:
				i++
			}
		}
		// Recurse into the two smaller parts, go on with the largest, so
		// the stack stays shallow.
		parts := [3]struct {
			s    []uint32
			next int
		}{{idx[:lt], d}, {idx[lt:gt], d + 1}, {idx[gt:], d}}
		if p < 0 {
			parts[1].s = nil // names that end at d are equal: sorted
		}
		big := 0
		for k := 1; k < 3; k++ {
			if len(parts[k].s) > len(parts[big].s) {
				big = k
			}
		}
		for k := range 3 {
			if k != big {
				mkq(parts[k].s, entries, parts[k].next)
			}
		}
		idx, d = parts[big].s, parts[big].next
	}
	insertionFrom(idx, entries, d)
}

func median3(a, b, c int) int {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// insertionFrom sorts a few indexes whose names agree before byte d.
func insertionFrom(idx []uint32, entries []Entry, d int) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && entries[idx[j]].Name[d:] < entries[idx[j-1]].Name[d:]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}
