package browse

import "strings"

// The search shows the entries of the directory shown whose names hold
// what is typed, ignoring case, as it is typed; it does not look below.

// askSearch starts a search: Enter keeps its filter, Esc clears it.
func (b *browser) askSearch() {
	b.prompt = &prompt{label: "Search: ", text: []rune(b.search),
		typed:  func(s string) { b.search = s; b.refresh("") },
		done:   func(s string) { b.search = s; b.refresh("") },
		cancel: func() { b.search = ""; b.refresh("") }}
}

// matchesSearch reports whether name holds the search, ignoring case.
func (b *browser) matchesSearch(name string) bool {
	return b.search == "" || strings.Contains(strings.ToLower(name), strings.ToLower(b.search))
}
