package browse

import (
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// ScanProgress shows a scan's progress on s, ten times a second, until
// done closes; it reports true when the user stopped it (q, ctrl-c).
// stop says what stopping does.
func ScanProgress(s tcell.Screen, dir string, p *dutree.Progress, done <-chan struct{}, color bool, stop string) (stopped bool) {
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	go s.ChannelEvents(events, quit)
	defer close(quit)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	b := &browser{s: s, styles: newStyles(color)}
	for {
		drawProgress(b, dir, p, time.Since(start), stop)
		select {
		case <-done:
			return false
		case <-tick.C:
		case ev := <-events:
			switch ev := ev.(type) {
			case *tcell.EventKey:
				if ev.Key() == tcell.KeyCtrlC || ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyRune && ev.Rune() == 'q' {
					return true
				}
			case *tcell.EventResize:
				s.Sync()
			}
		}
	}
}

func drawProgress(b *browser, dir string, p *dutree.Progress, elapsed time.Duration, stop string) {
	w, h := b.s.Size()
	b.s.Clear()
	cur := ""
	if c := p.Current.Load(); c != nil {
		cur = *c
	}
	width := min(w, 76) - 17
	b.box(w, h, "Scanning...", []shown{
		"Scanning:  " + fitMiddle(esc(dir), width),
		textf("Items:     %d", p.Entries.Load()),
		textf("Size:      %s", Human(p.Bytes.Load(), false)),
		"Current:   " + fitMiddle(esc(cur), width),
		textf("Elapsed:   %.1f s", elapsed.Seconds()),
		"",
		"Press q to stop: " + shown(stop),
	})
	b.s.Show()
}
