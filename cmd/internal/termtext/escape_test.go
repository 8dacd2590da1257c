package termtext

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain/name.txt":   "plain/name.txt",
		"a\nb":             `a\nb`,
		`a\nb`:             `a\\nb`,
		"a?b":              "a?b",
		"X\x1b]2;PWN\x07":  `X\x1b]2;PWN\a`,
		"del\x7f":          `del\x7f`,
		"bad\xff":          `bad\xff`,
		"c1\u009b":         `c1\u009b`,
		"rtl\u202egnp.exe": `rtl\u202egnp.exe`,
		"名前 ünï":           "名前 ünï",
		"\u0301lead":       `\u0301lead`,
		"e\u0301":          "e\u0301",
		"tag\U000E0041":    `tag\U000e0041`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := EscapeControls(`keep\x1b` + "\x1b"); got != `keep\x1b\x1b` {
		t.Errorf("EscapeControls: %q", got)
	}
}
