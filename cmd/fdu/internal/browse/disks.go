package browse

import (
	"errors"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/disks"
)

// ErrDisks is what Run returns when the user asks for the list of disks
// (V): the caller shows it (PickDisk) and browses the disk chosen.
var ErrDisks = errors.New("the list of disks was asked for")

// PickDisk shows the mounted file systems d on s, as gdu -d does, and
// returns the mount point chosen with enter; ok is false when the user
// leaves (q, esc, ctrl-c) or there is none.
func PickDisk(s tcell.Screen, d []disks.Disk, color bool, format func(int64) string) (mount string, ok bool) {
	if format == nil {
		format = func(n int64) string { return Human(n, false) }
	}
	b := &browser{s: s, styles: newStyles(color)}
	sel := 0
	for {
		b.drawDisks(d, sel, format)
		switch ev := s.PollEvent().(type) {
		case *tcell.EventResize:
			s.Sync()
		case *tcell.EventKey:
			k, r := ev.Key(), ev.Rune()
			switch {
			case k == tcell.KeyUp || k == tcell.KeyRune && r == 'k':
				sel = max(sel-1, 0)
			case k == tcell.KeyDown || k == tcell.KeyRune && r == 'j':
				sel = max(min(sel+1, len(d)-1), 0)
			case k == tcell.KeyEnter || k == tcell.KeyRight || k == tcell.KeyRune && r == 'l':
				if len(d) > 0 {
					return d[sel].MountPoint, true
				}
			case k == tcell.KeyEscape || k == tcell.KeyCtrlC || k == tcell.KeyRune && r == 'q':
				return "", false
			}
		case nil:
			return "", false
		}
	}
}

func (b *browser) drawDisks(d []disks.Disk, sel int, format func(int64) string) {
	b.s.Clear()
	w, h := b.s.Size()
	b.put(0, 0, fit("fdu ~ Mounted disks: enter scans the one selected, q quits", w), b.styles.frame)
	b.put(0, 1, fit(textf("%-20s %10s %10s %5s %10s %-8s %s", "Device", "Size", "Used", "Use%", "Free", "Type", "Mount point"), w), b.styles.plain.Bold(true))
	if len(d) == 0 {
		b.put(1, 2, "(no disk found)", b.styles.plain)
	}
	top := max(sel-(h-4), 0)
	for i := top; i < len(d) && 2+i-top < h-1; i++ {
		x := d[i]
		pct := 0.0
		if x.Size > 0 {
			pct = float64(x.Used) * 100 / float64(x.Size)
		}
		st := b.styles.plain
		if i == sel {
			st = b.styles.sel
			b.put(0, 2+i-top, repeat(" ", w), st)
		}
		line := textf("%-20s %10s %10s %4.0f%% %10s %-8s %s", fitMiddle(esc(x.Device), 20), format(int64(x.Size)), format(int64(x.Used)), pct,
			format(int64(x.Free)), x.Type, esc(x.MountPoint))
		b.put(0, 2+i-top, fit(line, w), st)
	}
	b.put(0, h-1, fit(textf(" %d file systems", len(d)), w), b.styles.frame)
	b.s.Show()
}
