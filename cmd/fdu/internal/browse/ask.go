package browse

import (
	"github.com/gdamore/tcell/v2"
)

// query is a box asking yes or no: yes runs on y, any other key keeps
// things as they are.
type query struct {
	title shown
	lines []shown
	yes   func()
}

// window is a box of text that any key closes (a summary).
type window struct {
	title shown
	lines []shown
}

// prompt is a line typed on the footer: typed sees each change (a search
// as one types), done the line on Enter, cancel an Esc.
type prompt struct {
	label  shown
	text   []rune
	typed  func(string)
	done   func(string)
	cancel func()
}

// modalKey gives the key to the question, window or prompt shown, if
// any, and reports whether there was one.
func (b *browser) modalKey(ev *tcell.EventKey) bool {
	switch {
	case b.prompt != nil:
		b.promptKey(ev)
	case b.ask != nil:
		q := b.ask
		b.ask = nil
		if ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y') {
			q.yes()
		}
	case b.window != nil:
		b.window = nil
	default:
		return false
	}
	return true
}

func (b *browser) promptKey(ev *tcell.EventKey) {
	p := b.prompt
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC:
		b.prompt = nil
		if p.cancel != nil {
			p.cancel()
		}
		return
	case tcell.KeyEnter:
		b.prompt = nil
		if p.done != nil {
			p.done(string(p.text))
		}
		return
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(p.text) > 0 {
			p.text = p.text[:len(p.text)-1]
		}
	case tcell.KeyCtrlU:
		p.text = p.text[:0]
	case tcell.KeyRune:
		p.text = append(p.text, ev.Rune())
	default:
		return
	}
	if p.typed != nil {
		p.typed(string(p.text))
	}
}

// drawModal draws the question, window or prompt shown, if any.
func (b *browser) drawModal(w, h int) {
	switch {
	case b.ask != nil:
		b.box(w, h, b.ask.title, fitLines(append(b.ask.lines, "", "y: yes        any other key: no"), h-2))
	case b.window != nil:
		b.box(w, h, b.window.title, fitLines(append(b.window.lines, "", "any key closes this"), h-2))
	case b.prompt != nil:
		b.put(0, h-1, fit(" "+b.prompt.label+esc(string(b.prompt.text))+"_", w), b.styles.frame)
	}
}

// fitLines keeps the last two lines (the keys) and as many of the others
// as fit in most, saying how many were left out.
func fitLines(lines []shown, most int) []shown {
	if len(lines) <= most || most < 4 {
		return lines
	}
	keep := most - 3
	out := append([]shown{}, lines[:keep]...)
	out = append(out, textf("... and %d more lines", len(lines)-2-keep))
	return append(out, lines[len(lines)-2:]...)
}
