package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// du's messages in UTF-8 locales: the names in them quoted with the
// locale's printable characters, quote()'s marks ‘ ’.

// classNames are file names of every class a UTF-8 locale treats apart:
// printable in glibc's tables, unprintable, or not UTF-8 at all.
var classNames = []string{
	"cjk-名前", "latin-ünï", "comb-e\u0301", "zwj-👨\u200d👩", "rtl-שלום", "bidi-\u202eabc\u202c", "lrm-\u200e",
	"emoji-😀", "newer-emoji-\U0001FAE8", "fffd-\uFFFD", "nbsp-\u00a0", "tag-\U000E0001", "private-\uE000",
	"c1-\u0085", "nonchar-\uFFFE", "nonchar-\U0010FFFF", "surrogate-\xed\xa0\x80", "overlong-\xc0\xaf",
	"overlong3-\xe0\x80\xaf", "truncated-\xe5\x90", "truncated-mid-\xe5\x90x", "invalid-\xff\xfe",
	"quote-it's-名", "rquote-x’y", "ctrl-\x1b[1m", "five-bytes-\xf8\x88\x80\x80\x80", "past-max-\xf4\x90\x80\x80",
}

// notGenerated is a locale name no machine generates: glibc runs in C.
const notGenerated = "xx_XX.UTF-8"

// testLocales are the locales the tests compare du and fdu in.
var testLocales = []string{"C", "C.UTF-8", "en_US.UTF-8", notGenerated}

var generateOnce sync.Once

// duIn skips unless du is GNU and locale is one it loads, or is meant
// not to: en_US.UTF-8 is generated when it is missing and the tests run
// as root, as locale-gen would.
func duIn(t *testing.T, locale string) string {
	t.Helper()
	du := gnuDu(t)
	if locale == "C" || locale == notGenerated {
		return du
	}
	if !loaded(du, locale) && locale == "en_US.UTF-8" && os.Geteuid() == 0 {
		generateOnce.Do(func() { exec.Command("localedef", "-i", "en_US", "-f", "UTF-8", "en_US.UTF-8").Run() })
	}
	if !loaded(du, locale) {
		t.Skipf("skipping: the %s locale is not installed and cannot be generated (locale-gen, as root)", locale)
	}
	return du
}

// loaded reports whether du runs in locale: quote() then uses ‘ ’.
func loaded(du, locale string) bool {
	cmd := exec.Command(du, "--max-depth=x")
	cmd.Env = append(cleanEnv(), "LC_ALL="+locale)
	out, _ := cmd.CombinedOutput()
	return bytes.Contains(out, []byte("‘x’"))
}

// localeTree is a directory holding L, a dangling link named for each
// class, and list0, every class name for --files0-from.
func localeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "L"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range classNames {
		if err := os.Symlink("nowhere", filepath.Join(dir, "L", n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "list0"), []byte(strings.Join(classNames, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLocaleMessagesAsDu: names of every class in the messages of -L's
// dangling links, of excluded trees, of missing files and of -X's file,
// and arguments of every class in quote()'s messages, in each locale.
func TestLocaleMessagesAsDu(t *testing.T) {
	dir := localeTree(t)
	cases := [][]string{
		{"-L", "L"}, {"-La", "L"}, {"-Ls", "L"}, {"-L", "--exclude=*-名*", "L"}, {"-L", "--exclude=*\u200d*", "L"},
		{"-La", "--exclude=*\xff*", "L"}, {"-L", "--exclude=cjk-??", "L"}, {"-La", "--exclude=cjk-??????", "L"},
		{"-L", "--exclude=*-[!x]??", "L"}, {"-Ls", "--exclude=zwj-?\u200d?", "--exclude=L/rtl-????", "L"},
		{"--files0-from=list0"}, {"-s", "--files0-from=list0"},
		{"--files0-from=list0", classNames[0]},
	}
	cases = append(cases, classNames)
	for _, n := range classNames {
		cases = append(cases, []string{"-X", n, "L"}, []string{"-d", n, "L"}, []string{"--time=" + n, "L"},
			[]string{"--time", "--time-style=" + n, "L"}, []string{"L/" + n + "/"})
	}
	cases = append(cases, []string{"--time", "--time-style=bogus", "L"}, []string{"--time=bogus", "L"}, []string{"--time=", "L"})
	for _, locale := range testLocales {
		t.Run(locale, func(t *testing.T) {
			du := duIn(t, locale)
			env := []string{"LC_ALL=" + locale}
			for _, args := range cases {
				compare(t, runDu(t, du, dir, env, args), runFdu(t, dir, env, args))
			}
		})
	}
}

// TestCodePointsAsDu: every code point in names du cannot find, so that
// each is quoted as printable or escaped, as the installed glibc's
// tables say; then the byte sequences that are no characters. Forty-eight
// to a name, short of NAME_MAX, for fewer messages.
func TestCodePointsAsDu(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: 23,000 names in each locale")
	}
	var list []string
	var name []rune
	for r := rune(0x80); r <= 0x10ffff; r++ {
		if 0xd800 <= r && r < 0xe000 {
			continue
		}
		if name = append(name, r); len(name) == 48 || r == 0x10ffff {
			list = append(list, "cp"+string(name))
			name = name[:0]
		}
	}
	for b := 0x80; b < 0x100; b++ {
		list = append(list, string([]byte{'b', byte(b)}), string([]byte{'b', byte(b), 0x80, 0x80, 0x80, 0x80, 0x80}))
	}
	for _, s := range []string{"\xed\xa0\x80", "\xed\xbf\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
		"\xf4\x90\x80\x80", "\xf7\xbf\xbf\xbf", "\xfb\xbf\xbf\xbf\xbf", "\xfd\xbf\xbf\xbf\xbf\xbf", "\xe5\x90", "\xf0\x9f\x98"} {
		list = append(list, "seq"+s, "seq"+s+"x")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "all0"), []byte(strings.Join(list, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, locale := range []string{"C.UTF-8", "en_US.UTF-8"} {
		t.Run(locale, func(t *testing.T) {
			du := duIn(t, locale)
			env := []string{"LC_ALL=" + locale}
			args := []string{"--files0-from=all0"}
			compare(t, runDu(t, du, dir, env, args), runFdu(t, dir, env, args))
		})
	}
}

// TestLocaleVariablesAsDu: the variables that name a locale, in
// setlocale's order and with its fallback to C when any category cannot
// be loaded.
func TestLocaleVariablesAsDu(t *testing.T) {
	du := duIn(t, "C.UTF-8")
	dir := localeTree(t)
	withEnUS := loaded(du, "en_US.UTF-8")
	for _, env := range [][]string{
		{"LANG=C.UTF-8"}, {"LC_CTYPE=C.UTF-8"}, {"LC_MESSAGES=C.UTF-8"}, {"LANG=C.UTF-8", "LC_CTYPE=C"},
		{"LANG=C.UTF-8", "LC_MESSAGES=" + notGenerated}, {"LANG=C.UTF-8", "LC_TIME=POSIX"}, {"LC_ALL=POSIX", "LANG=C.UTF-8"},
		{"LC_ALL=C.utf8"}, {"LC_ALL=C.UTF8"}, {"LC_ALL=C.utf-8@x"}, {"LC_ALL=C.ISO-8859-1"}, {"LC_ALL=c.UTF-8"},
		{"LANG=C.UTF-8", "LOCPATH=/nonexistent"}, {"LANG=../C.utf8"}, {"LANG=/usr/lib/locale/C.utf8"},
		{"LANG=en_US.UTF-8"}, {"LANG=en_US.utf8"}, {"LANG=en_US"}, {"LANG=EN_us.UTF-8"}, {"LANG=english"},
		{"LANG=en_US.UTF-8", "LOCPATH=/nonexistent"}, {"LANG=en_US.UTF-8", "LC_NUMERIC=C.UTF-8"},
	} {
		if strings.Contains(strings.Join(env, " "), "en_US") && !withEnUS {
			continue // TestLocaleMessagesAsDu says why
		}
		// Every variable set, to nothing if not named: fdu's environment
		// is the test's, du's only cleanEnv's.
		full := append([]string{"LC_ALL=", "LANG=", "LC_CTYPE=", "LC_MESSAGES=", "LC_TIME=", "LC_NUMERIC=", "LOCPATH="}, env...)
		for _, args := range [][]string{{"-L", "L"}, {"--max-depth=名", "L"}} {
			t.Run(strings.Join(env, " ")+" "+args[0], func(t *testing.T) {
				compare(t, runDu(t, du, dir, full, args), runFdu(t, dir, full, args))
			})
		}
	}
}

// TestLocaleUnreadableAsNobody: as nobody, directories named for each
// class that cannot be read, and in a directory that can be listed but
// not searched, files of each name that cannot be stat'ed (what a file
// removed between the listing and its stat also meets).
func TestLocaleUnreadableAsNobody(t *testing.T) {
	gnuDu(t)
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root to run du and fdu as nobody")
	}
	top := testfs.WorldDir(t)
	for _, n := range classNames {
		for _, p := range []string{filepath.Join(top, "u", n), filepath.Join(top, "u", "listonly", n)} {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(filepath.Join(top, "u", n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(top, "u", "listonly"), 0o444); err != nil {
		t.Fatal(err)
	}
	for _, locale := range testLocales {
		t.Run(locale, func(t *testing.T) {
			du := duIn(t, locale)
			for _, args := range [][]string{{"u"}, {"-a", "u"}, {"-s", "u"}} {
				env := []string{"LC_ALL=" + locale}
				compare(t, runDuAsNobody(t, du, top, env, args), runHelperEnv(t, top, env, args))
			}
		})
	}
}

// runDuAsNobody runs du in dir as nobody.
func runDuAsNobody(t *testing.T, du, dir string, env, args []string) result {
	t.Helper()
	cmd := exec.Command(du, args...)
	cmd.Args[0] = "du"
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Skipf("skipping: cannot run du as nobody: %v", err)
		}
		code = ee.ExitCode()
	}
	return result{out.String(), strings.ReplaceAll(errb.String(), "du: ", "fdu: "), code}
}

// runHelperEnv is runHelper with variables set for fdu.
func runHelperEnv(t *testing.T, dir string, env, args []string) result {
	t.Helper()
	env = append(env, helperEnv+"="+strings.Join(args, "\x1f"), helperEnv+"_DIR="+dir)
	out := testfs.RunAsNobodyResult(t, dir, env...)
	return result{out.Stdout, out.Stderr, out.Code}
}

// TestSingleByteLocaleAsDu: in ISO-8859-1, generated with localedef into
// a directory LOCPATH names, every byte is a character, printable from
// 0xA0 as the locale's class table says; quote() keeps ASCII quotes.
func TestSingleByteLocaleAsDu(t *testing.T) {
	du := gnuDu(t)
	locpath := t.TempDir()
	if out, err := exec.Command("localedef", "-i", "en_US", "-f", "ISO-8859-1", filepath.Join(locpath, "en_US.iso88591")).CombinedOutput(); err != nil {
		t.Skipf("skipping: localedef cannot make en_US.ISO-8859-1 (Debian's locales package has its sources): %v: %s", err, out)
	}
	dir := t.TempDir()
	var names []string
	for b := 0x80; b < 0x100; b += 4 {
		names = append(names, string([]byte{'n', byte(b), byte(b + 1), byte(b + 2), byte(b + 3)}))
	}
	if err := os.WriteFile(filepath.Join(dir, "list0"), []byte(strings.Join(names, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"LC_ALL=en_US.ISO-8859-1", "LOCPATH=" + locpath}
	for _, args := range [][]string{{"--files0-from=list0"}, {"-d", "\xe9t\xe9"}, {"-X", "\xe9t\xe9:\x85"}, {"--time=\xe9"}} {
		compare(t, runDu(t, du, dir, env, args), runFdu(t, dir, env, args))
	}
}
