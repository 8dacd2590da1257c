package browse

import (
	"errors"
	"strings"
)

// askQuit quits, asking first under --confirm-quit; printDir (Q) leaves
// the path of the directory shown for the caller to print once the
// terminal is restored.
func (b *browser) askQuit(printDir bool) {
	quit := func() {
		if printDir && b.cfg.QuitPath != nil {
			*b.cfg.QuitPath = b.path("")
		}
		b.quit = true
	}
	if !b.cfg.ConfirmQuit {
		quit()
		return
	}
	b.ask = &query{title: "Quit", lines: []shown{"Really quit fdu?"}, yes: quit}
}

// QuitLine is what Q leaves on stdout for path once the terminal is
// restored. On a terminal it is for the eyes, escaped as every name is.
// Elsewhere it is for cd "$(fdu -i)": the path's bytes, or an error when
// the path holds a newline, which $(...) would cut at its end (leading cd
// to another directory, perhaps another user's) and a reader of lines
// would split.
func QuitLine(path string, terminal bool) (string, error) {
	switch {
	case terminal:
		return Escape(path), nil
	case strings.Contains(path, "\n"):
		return "", errors.New("the path of the directory shown holds a newline: not printed, as $(...) or a reader of lines would not take it whole (" + Escape(path) + ")")
	}
	return path, nil
}
