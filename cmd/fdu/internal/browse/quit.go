package browse

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
