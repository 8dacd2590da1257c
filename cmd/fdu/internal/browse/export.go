package browse

import (
	"unicode"

	"github.com/gdamore/tcell/v2"
)

// The E key: the tree written to an ncdu JSON file, its name asked for.

// defaultExport is the name the prompt offers first.
const defaultExport = "fdu-export.json"

func (b *browser) askExport() {
	if b.cfg.Export == nil {
		b.message = "exporting is not available here"
		return
	}
	b.input, b.modal = defaultExport, exportModal
}

// exportKey edits the file name; enter writes, esc gives up.
func (b *browser) exportKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC:
		b.modal = noModal
	case tcell.KeyEnter:
		b.modal = noModal
		if b.input == "" {
			b.message = "not exported: no file name"
			return
		}
		if err := b.cfg.Export(b.input); err != nil {
			b.message = textf("not exported to %s: %s", b.input, err)
			return
		}
		b.message = textf("exported to %s", b.input)
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if r := []rune(b.input); len(r) > 0 {
			b.input = string(r[:len(r)-1])
		}
	case tcell.KeyCtrlU:
		b.input = ""
	case tcell.KeyRune:
		if r := ev.Rune(); unicode.IsPrint(r) {
			b.input += string(r)
		}
	}
}

func (b *browser) exportLines() []shown {
	w, h := b.s.Size()
	return append([]shown{"Write the tree in ncdu's JSON format to:"},
		append(question(esc(b.input)+"_", w-3, h-4),
			"enter: write   esc: cancel   ctrl-u: clear")...)
}
