package browse

import (
	"time"

	"github.com/gdamore/tcell/v2"
)

// modal is the box shown over the list, if any.
type modal int

const (
	noModal modal = iota
	helpModal
	infoModal
	confirmModal
	exportModal
)

// key acts on one key press.
func (b *browser) key(ev *tcell.EventKey) {
	if ev.Key() == tcell.KeyRune && ev.Modifiers()&tcell.ModAlt != 0 {
		// An escape and a key typed quickly arrive as alt and the key:
		// both are meant.
		b.key(tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone))
		b.key(tcell.NewEventKey(tcell.KeyRune, ev.Rune(), tcell.ModNone))
		return
	}
	if b.message != "" {
		b.message = "" // a message goes with the next key, which then acts
	}
	if b.modalKey(ev) {
		return
	}
	switch b.modal {
	case helpModal, infoModal:
		if ev.Key() == tcell.KeyRune && ev.Rune() == 'q' && b.modal == helpModal || ev.Key() == tcell.KeyEscape ||
			ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyRune && (ev.Rune() == 'i' || ev.Rune() == '?') {
			b.modal = noModal
		}
		return
	case confirmModal:
		b.modal = noModal
		if ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y') {
			b.deleteSelected()
		}
		return
	case exportModal:
		b.exportKey(ev)
		return
	}
	if b.move(ev) {
		return
	}
	switch ev.Key() {
	case tcell.KeyEnter, tcell.KeyRight:
		b.enter()
	case tcell.KeyLeft, tcell.KeyBackspace, tcell.KeyBackspace2:
		b.up()
	case tcell.KeyCtrlC:
		b.askQuit(false)
	case tcell.KeyCtrlT:
		b.askTrash()
	case tcell.KeyEscape:
		if b.search != "" {
			b.search = ""
			b.refresh("")
		}
	case tcell.KeyCtrlL:
		b.s.Sync()
	case tcell.KeyRune:
		b.letter(ev.Rune())
	}
}

// move handles the keys that move the cursor.
func (b *browser) move(ev *tcell.EventKey) bool {
	page := max(b.rows()-1, 1)
	to := b.sel
	switch k, r := ev.Key(), ev.Rune(); {
	case k == tcell.KeyUp || k == tcell.KeyRune && r == 'k':
		to--
	case k == tcell.KeyDown || k == tcell.KeyRune && r == 'j':
		to++
	case k == tcell.KeyPgUp || k == tcell.KeyCtrlB:
		to -= page
	case k == tcell.KeyPgDn || k == tcell.KeyCtrlF:
		to += page
	case k == tcell.KeyHome || k == tcell.KeyRune && r == 'g':
		to = 0
	case k == tcell.KeyEnd || k == tcell.KeyRune && r == 'G':
		to = len(b.view) - 1
	default:
		return false
	}
	b.sel = max(min(to, len(b.view)-1), 0)
	return true
}

// letter handles the other keys: ncdu's, where it has one.
func (b *browser) letter(r rune) {
	switch r {
	case 'l':
		b.enter()
	case 'h', '<', 'u':
		b.up()
	case 'T':
		b.toTop()
	case 'q':
		b.askQuit(false)
	case 'Q':
		b.askQuit(true)
	case ' ':
		b.toggleMark()
	case 'A':
		b.markAll()
	case 'D':
		b.askTrash()
	case 'z':
		b.askEmpty()
	case 'F':
		b.askAge()
	case '/':
		b.askSearch()
	case '?':
		b.modal = helpModal
	case 'i':
		if b.selected() != nil {
			b.modal = infoModal
		}
	case 'd':
		b.askDelete()
	case 'r':
		b.guard(func() { b.rescan() })
	case 'b':
		b.guard(b.shell)
	case 'o':
		b.toggleOwner()
	case 'E':
		b.askExport()
	case 'V':
		if b.cfg.Disks {
			b.disks, b.quit = true, true
		} else {
			b.message = "the list of disks is made on Linux only"
		}
	case 's', 'n', 'C', 'M':
		b.sortBy(map[rune]sortKey{'s': bySize, 'n': byName, 'C': byCount, 'M': byMtime}[r])
	default:
		b.toggle(r)
	}
}

// toggle flips a display setting.
func (b *browser) toggle(r rune) {
	switch r {
	case 'a':
		b.apparent = !b.apparent
	case 'c':
		b.count = !b.count
	case 'm':
		b.mtime = !b.mtime
	case 'e':
		b.hidden = !b.hidden
	case 't':
		b.dirsFirst = !b.dirsFirst
	case 'g':
		b.graph = (b.graph + 1) % 4
	default:
		return
	}
	b.refresh("")
}

// sortBy sorts by k; the same key again reverses the order, as in ncdu.
func (b *browser) sortBy(k sortKey) {
	if b.sort == k {
		b.desc = !b.desc
	} else {
		b.sort, b.desc = k, k != byName
	}
	b.refresh("")
}

func (b *browser) guard(f func()) {
	if why := b.readOnly(); why != "" {
		b.message = why
		return
	}
	f()
}

func (b *browser) askDelete() {
	if why := b.readOnly(); why != "" {
		b.message = why
		return
	}
	if len(b.marks.set) > 0 {
		b.askMarked(false)
		return
	}
	if why := b.ageRefuses(b.selected()); why != "" {
		b.message = textf("Not deleted: %s", why)
		return
	}
	if b.selected() != nil {
		b.modal = confirmModal
	}
}

// mouse takes the wheel (three lines a notch) and clicks: one selects the
// line, a second within half a second opens it; a click closes a box.
func (b *browser) mouse(ev *tcell.EventMouse) {
	btn := ev.Buttons()
	switch {
	case btn&tcell.WheelUp != 0:
		b.sel = max(b.sel-3, 0)
	case btn&tcell.WheelDown != 0:
		b.sel = max(min(b.sel+3, len(b.view)-1), 0)
	case btn&tcell.Button1 != 0:
		if b.ask != nil || b.prompt != nil {
			return // answered by a key only
		}
		if b.modal != noModal || b.window != nil {
			b.window = nil
			if b.modal != confirmModal { // a deletion is confirmed by a key only
				b.modal = noModal
			}
			return
		}
		_, y := ev.Position()
		row := b.top + y - 2
		if y < 2 || row >= len(b.view) || row < 0 {
			return
		}
		double := row == b.lastClickLine && time.Since(b.lastClick) < 500*time.Millisecond
		b.sel, b.lastClick, b.lastClickLine = row, time.Now(), row
		if double {
			b.lastClick = time.Time{}
			b.enter()
		}
	}
}
