package browse

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Human is n bytes as ncdu shows them: one decimal and a binary unit, or a
// decimal one under si.
func Human(n int64, si bool) string {
	base, units := 1024.0, []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if si {
		base, units = 1000, []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
	}
	f, u := float64(n), 0
	for f >= base*0.9995 && u < len(units)-1 { // 1023.95 KiB shows as 1.0 MiB
		f /= base
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d %s", n, units[0])
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

// sanitize is name as a terminal can show it: a control character as ?
// and a byte that is not UTF-8 as U+FFFD, as ncdu shows them.
func sanitize(name string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(name); i += w {
		r, size := utf8.DecodeRuneInString(name[i:])
		w = size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || i == 0 && unicode.Is(unicode.Mn, r):
			// Controls, and the format characters that reorder or hide
			// text (U+202E, zero widths), as ?; a leading combining mark
			// too, which has no character to combine with.
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fit is s cut or padded to width cells; a cut ends with "~". Widths are
// tcell's (uniseg's grapheme clusters), so the columns line up.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if w := uniseg.StringWidth(s); w <= width {
		return s + strings.Repeat(" ", width-w)
	}
	head := prefix(s, width-1)
	return head + "~" + strings.Repeat(" ", width-1-uniseg.StringWidth(head))
}

// prefix is the longest start of s at most width cells wide.
func prefix(s string, width int) string {
	used, end, state := 0, 0, -1
	for rest := s; rest != ""; {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+w > width {
			break
		}
		used += w
		end += len(cluster)
	}
	return s[:end]
}

// suffix is the longest end of s at most width cells wide.
func suffix(s string, width int) string {
	var starts []int
	var widths []int
	state, off := -1, 0
	for rest := s; rest != ""; {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		starts, widths = append(starts, off), append(widths, w)
		off += len(cluster)
	}
	used, start := 0, len(s)
	for i := len(starts) - 1; i >= 0 && used+widths[i] <= width; i-- {
		used += widths[i]
		start = starts[i]
	}
	return s[start:]
}

// fitMiddle is s cut to width cells in the middle, as ncdu shortens a
// long path: its start and its end kept.
func fitMiddle(s string, width int) string {
	if uniseg.StringWidth(s) <= width {
		return s
	}
	if width < 5 {
		return prefix(s, max(width, 0))
	}
	head := (width - 3) / 2
	return prefix(s, head) + "..." + suffix(s, width-3-head)
}
