package du

import "testing"

// TestTrimSlashes: fts_open's trimming of trailing slashes.
func TestTrimSlashes(t *testing.T) {
	for in, want := range map[string]string{
		"d//": "d/", "d///": "d/", "d/": "d/", "d": "d", "//": "//", "///": "/", "////": "/", "/": "/",
		"a//b//": "a//b/", "": "", "d/.//": "d/./",
	} {
		if got := trimSlashes(in); got != want {
			t.Errorf("trimSlashes(%q) = %q, want %q", in, got, want)
		}
	}
}
