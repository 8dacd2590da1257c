package message

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// utf8Test is a UTF-8 charset printing what glibc 2.36's C.UTF-8 prints
// of the characters below: not C1 controls, non-characters, nor emoji
// newer than its Unicode 14.
var utf8Test = Charset{UTF8: true, Print: func(r rune) bool {
	switch {
	case r < 0x80:
		return 0x20 <= r && r < 0x7f
	case r < 0xa0, r == 0xfffe, r == 0x1fae8, r == 0x10ffff:
		return false
	}
	return true
}}

// quoteCases are what du 9.1 prints for each name or argument: quoteaf's
// (cannot access), quotef's (-X's file) and quote()'s (--time's
// argument), in C and in C.UTF-8:
//
//	$ LC_ALL=C du -- NAME; LC_ALL=C du -X NAME .; LC_ALL=C du --time=NAME .
var quoteCases = []struct {
	in                           string
	cAF, cF, cArg, uAF, uF, uArg string
}{
	{"ünï-名前\xff/x", `''$'\303\274''n'$'\303\257''-'$'\345\220\215\345\211\215\377''/x'`,
		`''$'\303\274''n'$'\303\257''-'$'\345\220\215\345\211\215\377''/x'`, `'\303\274n\303\257-\345\220\215\345\211\215\377/x'`,
		`'ünï-名前'$'\377''/x'`, `'ünï-名前'$'\377''/x'`, `‘ünï-名前\377/x’`},
	{"it's-名", `'''it'\''s-'$'\345\220\215'`, `'''it'\''s-'$'\345\220\215'`, `'it\'s-\345\220\215'`,
		`"it's-名"`, `"it's-名"`, `‘it's-名’`},
	{"a@b", `'a@b'`, `a@b`, `'a@b'`, `'a@b'`, `a@b`, `‘a@b’`},
	{"\xff'\xff", `'\377'\'''$'\377'`, `'\377'\'''$'\377'`, `'\377\'\377'`, `'\377'\'''$'\377'`, `'\377'\'''$'\377'`, `‘\377'\377’`},
	{"it's", `"it's"`, `"it's"`, `'it\'s'`, `"it's"`, `"it's"`, `‘it's’`},
	{"a\u200db", `'a'$'\342\200\215''b'`, `'a'$'\342\200\215''b'`, `'a\342\200\215b'`, "'a\u200db'", "a\u200db", "‘a\u200db’"},
	{"\u0085", `''$'\302\205'`, `''$'\302\205'`, `'\302\205'`, `''$'\302\205'`, `''$'\302\205'`, `‘\302\205’`},
	{"\xe4\xb8", `''$'\344\270'`, `''$'\344\270'`, `'\344\270'`, `''$'\344\270'`, `''$'\344\270'`, `‘\344\270’`},
	{"x’y", `'x'$'\342\200\231''y'`, `'x'$'\342\200\231''y'`, `'x\342\200\231y'`, `'x’y'`, `x’y`, `‘x\’y’`},
	{"\uFFFE", `''$'\357\277\276'`, `''$'\357\277\276'`, `'\357\277\276'`, `''$'\357\277\276'`, `''$'\357\277\276'`, `‘\357\277\276’`},
	{"\U0001FAE8", `''$'\360\237\253\250'`, `''$'\360\237\253\250'`, `'\360\237\253\250'`, `''$'\360\237\253\250'`, `''$'\360\237\253\250'`, `‘\360\237\253\250’`},
	{"e\u0301", `'e'$'\314\201'`, `'e'$'\314\201'`, `'e\314\201'`, "'e\u0301'", "e\u0301", "‘e\u0301’"},
	{"tab\there", `'tab'$'\t''here'`, `'tab'$'\t''here'`, `'tab\there'`, `'tab'$'\t''here'`, `'tab'$'\t''here'`, `‘tab\there’`},
	{"a:b", `'a:b'`, `'a:b'`, `'a:b'`, `'a:b'`, `'a:b'`, `‘a:b’`},
	{`\back`, `'\back'`, `'\back'`, `'\\back'`, `'\back'`, `'\back'`, `‘\\back’`},
	{"sp ace", `'sp ace'`, `'sp ace'`, `'sp ace'`, `'sp ace'`, `'sp ace'`, `‘sp ace’`},
	{"#x", `'#x'`, `'#x'`, `'#x'`, `'#x'`, `'#x'`, `‘#x’`},
	{"x#", `'x#'`, `x#`, `'x#'`, `'x#'`, `x#`, `‘x#’`},
	{"{", `'{'`, `'{'`, `'{'`, `'{'`, `'{'`, `‘{’`},
	{"{}", `'{}'`, `{}`, `'{}'`, `'{}'`, `{}`, `‘{}’`},
	{"a]b", `'a]b'`, `a]b`, `'a]b'`, `'a]b'`, `a]b`, `‘a]b’`},
	{"é", `''$'\303\251'`, `''$'\303\251'`, `'\303\251'`, `'é'`, `é`, `‘é’`},
	{"q'é", `'''q'\'''$'\303\251'`, `'''q'\'''$'\303\251'`, `'q\'\303\251'`, `"q'é"`, `"q'é"`, `‘q'é’`},
	{"\x1b[1m", `''$'\033''[1m'`, `''$'\033''[1m'`, `'\033[1m'`, `''$'\033''[1m'`, `''$'\033''[1m'`, `‘\033[1m’`},
	{"\x7f", `''$'\177'`, `''$'\177'`, `'\177'`, `''$'\177'`, `''$'\177'`, `‘\177’`},
	{"'", `"'"`, `"'"`, `'\''`, `"'"`, `"'"`, `‘'’`},
	{"", `''`, `''`, `''`, `''`, `''`, `‘’`},
	// quotef quotes a name with any C escape, not only \n, \r and \t; 0x1f
	// is the last control below space; % @ _ are stored as they are.
	{"bell\a", `'bell'$'\a'`, `'bell'$'\a'`, `'bell\a'`, `'bell'$'\a'`, `'bell'$'\a'`, `‘bell\a’`},
	{"x\x1fy", `'x'$'\037''y'`, `'x'$'\037''y'`, `'x\037y'`, `'x'$'\037''y'`, `'x'$'\037''y'`, `‘x\037y’`},
	{"%@_", `'%@_'`, `%@_`, `'%@_'`, `'%@_'`, `%@_`, `‘%@_’`},
}

func TestQuoteAsDu(t *testing.T) {
	for _, c := range quoteCases {
		for _, q := range []struct {
			cs         *Charset
			st         style
			want, what string
		}{
			{&cLocale, shellAlways, c.cAF, "C quoteaf"}, {&cLocale, shellMaybe, c.cF, "C quotef"}, {&cLocale, localeStyle, c.cArg, "C quote"},
			{&utf8Test, shellAlways, c.uAF, "UTF-8 quoteaf"}, {&utf8Test, shellMaybe, c.uF, "UTF-8 quotef"}, {&utf8Test, localeStyle, c.uArg, "UTF-8 quote"},
		} {
			if got := quoteArg(c.in, q.st, func() *Charset { return q.cs }); got != q.want {
				t.Errorf("%s of %q: %s, du: %s", q.what, c.in, got, q.want)
			}
		}
	}
}

// TestCharsetLoadedWhenNeeded: quoting an ASCII name reads no locale; a
// byte past ASCII or quote()'s marks do, once.
func TestCharsetLoadedWhenNeeded(t *testing.T) {
	defer SetCharset(func() Charset { return cLocale })
	loads := 0
	SetCharset(func() Charset { loads++; return utf8Test })
	Quote("plain name\n")
	Quotef("it's:@")
	if loads != 0 {
		t.Fatalf("an ASCII name read the locale")
	}
	if Quote("é") != "'é'" || QuoteArg("x") != "‘x’" || loads != 1 {
		t.Errorf("the locale read %d times", loads)
	}
	SetCharset(func() Charset { return Charset{} })
	if Quote("é") != `''$'\303\251'` {
		t.Error("a charset with neither UTF-8 nor bytes is not C")
	}
}

// FuzzQuote: in either charset, quoteaf's output is read back by a shell
// as the name (but for a name with a single quote, which gnulib may
// quote wrongly: TestQuoteAsDu), quote()'s by C as the argument, and
// quotef's is the name or quoteaf's; none holds a byte a terminal acts
// on.
func FuzzQuote(f *testing.F) {
	for _, c := range quoteCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 || len(s) > 64 {
			return // quoting is byte by byte: a longer name adds nothing
		}
		for _, cs := range []*Charset{&cLocale, &utf8Test} {
			get := func() *Charset { return cs }
			af, f, arg := quoteArg(s, shellAlways, get), quoteArg(s, shellMaybe, get), quoteArg(s, localeStyle, get)
			if back, ok := unshell(af); !strings.Contains(s, "'") && (!ok || back != s) {
				t.Errorf("quoteaf(%q) = %s, read back as %q", s, af, back)
			}
			if f != s && f != af {
				t.Errorf("quotef(%q) = %s, neither the name nor quoteaf's %s", s, f, af)
			}
			if back := unC(arg, cs); back != s {
				t.Errorf("quote(%q) = %s, read back as %q", s, arg, back)
			}
			for _, out := range []string{af, f, arg} {
				if hasControl(out) || cs == &cLocale && strings.ContainsFunc(out, func(r rune) bool { return r >= 0x80 && r != '‘' && r != '’' }) {
					t.Errorf("%q quoted as %q", s, out)
				}
			}
		}
	})
}

// hasControl reports whether s holds a C0 or C1 control or DEL, or is
// not UTF-8 where it is not plain ASCII.
func hasControl(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || 0x7f <= r && r < 0xa0 })
}
