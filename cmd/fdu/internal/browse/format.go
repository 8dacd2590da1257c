package browse

import (
	"fmt"
	"strings"

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

// fit is s cut or padded to width cells; a cut ends with "~". Widths are
// tcell's (uniseg's grapheme clusters), so the columns line up; an escape
// is cut whole.
func fit(s shown, width int) shown {
	if width <= 0 {
		return ""
	}
	if w := uniseg.StringWidth(string(s)); w <= width {
		return s + repeat(" ", width-w)
	}
	head := prefix(s, width-1)
	return head + "~" + repeat(" ", width-1-uniseg.StringWidth(string(head)))
}

// repeat is s n times (none for n < 1).
func repeat(s shown, n int) shown { return shown(strings.Repeat(string(s), max(n, 0))) }

// prefix is the longest start of s at most width cells wide.
func prefix(s shown, width int) shown {
	used, end := 0, 0
	for _, u := range units(s) {
		if used+u.w > width {
			break
		}
		used += u.w
		end += len(u.s)
	}
	return s[:end]
}

// suffix is the longest end of s at most width cells wide.
func suffix(s shown, width int) shown {
	us := units(s)
	used, start := 0, len(s)
	for i := len(us) - 1; i >= 0 && used+us[i].w <= width; i-- {
		used += us[i].w
		start -= len(us[i].s)
	}
	return s[start:]
}

// fitMiddle is s cut to width cells in the middle, as ncdu shortens a
// long path: its start and its end kept.
func fitMiddle(s shown, width int) shown {
	if uniseg.StringWidth(string(s)) <= width {
		return s
	}
	if width < 5 {
		return prefix(s, max(width, 0))
	}
	head := (width - 3) / 2
	return prefix(s, head) + "..." + suffix(s, width-3-head)
}

// question is the confirmation's "Delete path?" in lines of at most width
// cells, at most rows of them (one at least): the path whole, wrapped,
// when it fits; under 20 cells wide without the "Delete " (the box's
// title and the keys' line say it) if that lets it fit; else its start in
// the first half of the lines and its end, the name, in the others, with
// "..." between: on a screen of 8x5 or more, never less than the path's
// first and last characters.
func question(path shown, width, rows int) []shown {
	width, rows = max(width, 1), max(rows, 1)
	q := "Delete " + path + "?"
	if lines := wrap(units(q), width); len(lines) <= rows {
		return lines
	}
	if width < 20 {
		q = path + "?"
		if lines := wrap(units(q), width); len(lines) <= rows {
			return lines
		}
	}
	if rows == 1 {
		return []shown{fitMiddle(q, width)}
	}
	us := narrow(units(q), width)
	// The start: rows/2 lines, the last one leaving room for "...".
	var head []shown
	var line shown
	used, i := 0, 0
	for ; i < len(us); i++ {
		room := width
		if len(head) == rows/2-1 {
			room = width - 3
		}
		if used+us[i].w > room && used > 0 {
			if len(head) == rows/2-1 {
				break
			}
			head, line, used = append(head, line), "", 0
		}
		line, used = line+us[i].s, used+us[i].w
	}
	head = append(head, line+"...")
	// The end: the other lines, filled from the last character back.
	tail := make([]shown, rows-rows/2)
	t, used := len(tail)-1, 0
	for j := len(us) - 1; j >= i && t >= 0; j-- {
		if used+us[j].w > width && used > 0 {
			t, used = t-1, 0
			if t < 0 {
				break
			}
		}
		tail[t], used = us[j].s+tail[t], used+us[j].w
	}
	for len(tail) > 0 && tail[0] == "" {
		tail = tail[1:]
	}
	return append(head, tail...)
}

// wrap is us in lines of at most width cells, broken after a "/" in the
// second half of a line if there is one, else where the width ends.
func wrap(us []unit, width int) []shown {
	us = narrow(us, width)
	var lines []shown
	start, used, brk := 0, 0, -1 // brk: after the line's last "/" far enough
	for i, u := range us {
		if used+u.w > width && used > 0 {
			end := i
			if brk > start {
				end = brk
			}
			lines = append(lines, concat(us[start:end]))
			start, used, brk = end, 0, -1
			for _, v := range us[start:i] {
				used += v.w
			}
			if used+u.w > width && used > 0 {
				lines, start, used = append(lines, concat(us[start:i])), i, 0
			}
		}
		used += u.w
		if u.s == "/" && used >= width/2 {
			brk = i + 1
		}
	}
	return append(lines, concat(us[start:]))
}

// narrow is us with each escape wider than width cells as its characters,
// so that it can be wrapped (a wide character alone stays wider).
func narrow(us []unit, width int) []unit {
	var out []unit
	for _, u := range us {
		if u.w <= width || u.s[0] != '\\' {
			out = append(out, u)
			continue
		}
		for i := range len(u.s) {
			out = append(out, unit{u.s[i : i+1], 1})
		}
	}
	return out
}

func concat(us []unit) shown {
	var s shown
	for _, u := range us {
		s += u.s
	}
	return s
}
