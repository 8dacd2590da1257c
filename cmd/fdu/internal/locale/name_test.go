package locale

import (
	"slices"
	"testing"
)

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"en_US.UTF-8": true, "C.utf8": true, "/usr/lib/locale/C.utf8": true, "a..b": true,
		"..": false, "../x": false, "x/../y": false, "/x/..": false, "x/y": false, string(make([]byte, 256)): false,
	} {
		if got := validName(name); got != want {
			t.Errorf("validName(%.20q) = %v, want %v", name, got, want)
		}
	}
}

func TestNormalizeCodeset(t *testing.T) {
	for cs, want := range map[string]string{
		"UTF-8": "utf8", "utf8": "utf8", "ISO-8859-1": "iso88591", "8859-1": "iso88591", "eucJP": "eucjp", "": "iso", "-": "iso",
	} {
		if got := normalizeCodeset(cs); got != want {
			t.Errorf("normalizeCodeset(%q) = %q, want %q", cs, got, want)
		}
	}
}

func TestArchiveName(t *testing.T) {
	for name, want := range map[string]string{
		"en_US.UTF-8": "en_US.utf8", "en_US.UTF-8@euro": "en_US.utf8@euro", "en_US": "en_US", "en_US.": "en_US.",
		"en_US.@x": "en_US.@x", "C.UTF-8": "C.utf8",
	} {
		if got := archiveName(name); got != want {
			t.Errorf("archiveName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestCandidates: the directories glibc tries, in its order (intl/
// l10nflist.c, and what strace shows glibc 2.36 open): the codeset as
// written, then normalized, then none, for each shortening of the rest.
func TestCandidates(t *testing.T) {
	for _, c := range []struct {
		name string
		dirs []string
		want []string
	}{
		{"C.UTF-8", []string{"/l"}, []string{"/l/C.UTF-8", "/l/C.utf8", "/l/C"}},
		{"C.utf8", []string{"/l"}, []string{"/l/C.utf8", "/l/C"}},
		{"en_US.UTF-8@euro", []string{"/l"}, []string{
			"/l/en_US.UTF-8@euro", "/l/en_US.utf8@euro", "/l/en_US@euro", "/l/en.UTF-8@euro", "/l/en.utf8@euro", "/l/en@euro",
			"/l/en_US.UTF-8", "/l/en_US.utf8", "/l/en_US", "/l/en.UTF-8", "/l/en.utf8", "/l/en"}},
		{"de_DE", []string{"/a", "/b"}, []string{"/a/de_DE", "/b/de_DE", "/a/de", "/b/de"}},
		{"_x.y", []string{"/l"}, []string{"/l/_x.y"}},
		{"en_.utf8@", []string{"/l"}, []string{"/l/en.utf8", "/l/en"}},
	} {
		if got := candidates(c.dirs, c.name); !slices.Equal(got, c.want) {
			t.Errorf("candidates(%q):\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// FuzzExplode: the parts of a name, put back together with the
// separators the name has, are the name.
func FuzzExplode(f *testing.F) {
	for _, s := range []string{"en_US.UTF-8@euro", "C.utf8", "_", ".", "@", "a_", "a.", "a@", "a_b@c.d", "a.b_c", "0.@0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p := explode(name)
		if p.mask&xpgNormCodeset != 0 && p.normCodeset == p.codeset {
			t.Errorf("%q: a normalized codeset the same as the codeset", name)
		}
		if back := rebuild(name, p); back != name {
			t.Errorf("%q put together again is %q", name, back)
		}
		for _, c := range candidates([]string{"d"}, name) {
			if len(c) < 2 || c[:2] != "d/" {
				t.Errorf("%q: candidate %q outside the directory", name, c)
			}
		}
		archiveName(name)
		validName(name)
	})
}

// rebuild joins p's parts with the separators name has after each.
func rebuild(name string, p parts) string {
	s := p.language
	for _, part := range []struct {
		sep  byte
		text string
	}{{'_', p.territory}, {'.', p.codeset}, {'@', p.modifier}} {
		if len(s) < len(name) && name[len(s)] == part.sep {
			s += string(part.sep) + part.text
		}
	}
	return s
}
