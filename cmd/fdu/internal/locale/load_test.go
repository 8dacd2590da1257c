package locale

import (
	"os"
	"path/filepath"
	"testing"
)

// env is an environment for load.
func env(kv ...string) Lookup {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// testSystem is a glibc installation in a temporary directory: the
// directory locale C.utf8, an archive holding en_US.utf8 and
// de_DE.iso88591, an alias file naming "english" and "deutsch", a
// directory locale xx_YY.utf8 without LC_PAPER and one named for its
// language only, zz, in UTF-8.
func testSystem(t *testing.T) system {
	t.Helper()
	root := t.TempDir()
	sys := system{filepath.Join(root, "locale-archive"), filepath.Join(root, "locale.alias"), filepath.Join(root, "locale")}
	writeLocaleDir(t, filepath.Join(sys.dir, "C.utf8"), "UTF-8", []rune{'é', '名'})
	writeLocaleDir(t, filepath.Join(sys.dir, "xx_YY.utf8"), "UTF-8", []rune{'é'}, "LC_PAPER")
	writeLocaleDir(t, filepath.Join(sys.dir, "zz"), "UTF-8", nil)
	ar := archiveBytes(map[string][lcLast][]byte{
		"en_US.utf8":     localeCats("UTF-8", []rune{'é', '名', 0x200d}),
		"de_DE.iso88591": localeCats("ISO-8859-1", nil),
	}, 7)
	if err := os.WriteFile(sys.archive, ar, 0o644); err != nil {
		t.Fatal(err)
	}
	alias := "# comment\nenglish\ten_US.UTF-8 trailing words\n  deutsch de_DE.ISO-8859-1\nbroken\n"
	if err := os.WriteFile(sys.alias, []byte(alias), 0o644); err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestLoad: which LC_CTYPE setlocale(LC_ALL, "") ends with, for the
// variables that name locales, as glibc decides.
func TestLoad(t *testing.T) {
	sys := testSystem(t)
	for _, c := range []struct {
		env     Lookup
		codeset string
	}{
		{env(), "ANSI_X3.4-1968"},
		{env("LANG", "C.UTF-8"), "UTF-8"},
		{env("LANG", "C.utf8"), "UTF-8"},
		{env("LANG", "C.UTF8"), "UTF-8"},
		{env("LANG", "C.ISO-8859-1"), "ANSI_X3.4-1968"},
		{env("LANG", "zz"), "UTF-8"},
		{env("LANG", "zz_QQ.utf-8@x"), "UTF-8"},          // found as zz, its codeset the one asked for
		{env("LANG", "zz.ISO-8859-1"), "ANSI_X3.4-1968"}, // found as zz, but not in the codeset asked for
		{env("LC_ALL", "en_US.UTF-8"), "UTF-8"},          // from the archive
		{env("LC_ALL", "en_US.utf8"), "UTF-8"},
		{env("LC_ALL", "EN_us.UTF-8"), "ANSI_X3.4-1968"}, // names are case-sensitive
		{env("LC_ALL", "en_US"), "ANSI_X3.4-1968"},       // not generated
		{env("LC_ALL", "english"), "UTF-8"},              // an alias, then the archive
		{env("LC_ALL", "ENGLISH"), "UTF-8"},              // aliases are not case-sensitive
		{env("LC_ALL", "deutsch"), "ISO-8859-1"},
		{env("LC_ALL", "xx_YY.UTF-8"), "ANSI_X3.4-1968"}, // LC_PAPER is missing: setlocale fails
		{env("LC_ALL", "", "LANG", "C.UTF-8"), "UTF-8"},  // an empty variable is not set
		{env("LC_ALL", "C", "LANG", "C.UTF-8"), "ANSI_X3.4-1968"},
		{env("LC_CTYPE", "C.UTF-8"), "UTF-8"},
		{env("LC_CTYPE", "C", "LANG", "C.UTF-8"), "ANSI_X3.4-1968"},
		{env("LANG", "C.UTF-8", "LC_MESSAGES", "nowhere"), "ANSI_X3.4-1968"}, // one category fails: all are C
		{env("LANG", "C.UTF-8", "LC_MESSAGES", "POSIX"), "UTF-8"},
		{env("LANG", "C.UTF-8", "LC_NUMERIC", "en_US.UTF-8"), "UTF-8"},
		{env("LANG", "en_US.UTF-8", "LOCPATH", "/nonexistent"), "ANSI_X3.4-1968"}, // LOCPATH: no archive
		{env("LANG", "C.UTF-8", "LOCPATH", "/nonexistent::"), "UTF-8"},            // then the default directory
		{env("LANG", "../C.utf8"), "ANSI_X3.4-1968"},
		{env("LANG", filepath.Join(sys.dir, "C.utf8")), "ANSI_X3.4-1968"},
	} {
		got := load(c.env, sys)
		if got.Codeset() != c.codeset {
			t.Errorf("%v: codeset %q, want %q", describe(c.env), got.Codeset(), c.codeset)
		}
	}
}

// TestLoadLocpath: LOCPATH's directories come before the default.
func TestLoadLocpath(t *testing.T) {
	sys := testSystem(t)
	mine := t.TempDir()
	writeLocaleDir(t, filepath.Join(mine, "C.utf8"), "UTF-8", []rune{'ü'})
	c := load(env("LANG", "C.UTF-8", "LOCPATH", mine), sys)
	if !c.IsWPrint('ü') || c.IsWPrint('é') {
		t.Errorf("LOCPATH's C.utf8 not the one read: ü %v, é %v", c.IsWPrint('ü'), c.IsWPrint('é'))
	}
}

// TestCtype: what is read of LC_CTYPE.
func TestCtype(t *testing.T) {
	sys := testSystem(t)
	c := load(env("LANG", "en_US.UTF-8"), sys)
	if !c.UTF8() || c.Unibyte() {
		t.Errorf("en_US.UTF-8: UTF8 %v, Unibyte %v", c.UTF8(), c.Unibyte())
	}
	for r, want := range map[rune]bool{'a': true, ' ': true, '\n': false, 0x7f: false, 'é': true, '名': true, 0x200d: true,
		'ü': false, 0x10ffff: false, 0x110000: false, 0x7fffffff: false, -1: false} {
		if got := c.IsWPrint(r); got != want {
			t.Errorf("IsWPrint(%U) = %v, want %v", r, got, want)
		}
	}
	l1 := load(env("LANG", "deutsch"), sys)
	if l1.UTF8() || !l1.Unibyte() || !l1.IsPrint('a') || l1.IsPrint(0xe9) {
		t.Errorf("ISO-8859-1: UTF8 %v, Unibyte %v", l1.UTF8(), l1.Unibyte())
	}
	if C.UTF8() || !C.Unibyte() || !C.IsPrint('~') || C.IsPrint(0xe9) || C.IsWPrint('é') {
		t.Error("C is not ASCII")
	}
}

// TestInstalled: the machine's own C.UTF-8, where it has one, and
// characters whose printability no Unicode version since glibc 2.35
// changes.
func TestInstalled(t *testing.T) {
	c := FromEnv(env("LC_ALL", "C.UTF-8"))
	if !c.UTF8() {
		t.Skip("skipping: no C.UTF-8 locale installed")
	}
	for r, want := range map[rune]bool{'é': true, '名': true, 0x200d: true, 0x00a0: true, 0x0301: true, 0xe000: true, 0xfffd: true,
		0x0085: false, 0x2028: false, 0xfffe: false, 0x10ffff: false, 0xe0001: true} {
		if got := c.IsWPrint(r); got != want {
			t.Errorf("C.UTF-8: IsWPrint(%U) = %v, want %v", r, got, want)
		}
	}
}

func describe(e Lookup) []string {
	var out []string
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC", "LANG", "LOCPATH"} {
		if v, ok := e(k); ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}
