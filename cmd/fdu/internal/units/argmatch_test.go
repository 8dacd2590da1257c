package units

import (
	"errors"
	"testing"
)

// TestTimeType: --time's words, whole or begun, as argmatch takes them:
// a start shared by words of one meaning is that meaning.
func TestTimeType(t *testing.T) {
	for word, want := range map[string]string{
		BareTime: "mtime", "atime": "atime", "a": "atime", "ac": "atime", "u": "atime", "c": "ctime", "s": "ctime",
		"status": "ctime", "": "", "mtime": "", "modification": "", "atimes": "", "x": "",
	} {
		got, err := TimeType(word)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("TimeType(%q) = %q, %v; want %q", word, got, err, want)
		}
	}
	_, err := TimeType("")
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Msg != "ambiguous argument '' for '--time'" ||
		ae.Valid != "Valid arguments are:\n  - 'atime', 'access', 'use'\n  - 'ctime', 'status'\n" {
		t.Errorf("TimeType(\"\"): %#v", err)
	}
}

// TestTimeFormat: --time-style's words begun, and TIME_STYLE's, read only
// without the option: unset or "locale" is long-iso, set but empty is no
// word at all.
func TestTimeFormat(t *testing.T) {
	for _, c := range []struct {
		style, env string
		given      bool
		want       string
	}{
		{"full", "", true, "%Y-%m-%d %H:%M:%S.%N %z"}, {"l", "", true, "%Y-%m-%d %H:%M"}, {"i", "", true, "%Y-%m-%d"},
		{"+%s", "", true, "%s"}, {"", "", true, ""}, {"posix-iso", "", true, ""}, {"", "posix-posix-iso", false, "%Y-%m-%d"},
		{"", "locale", false, "%Y-%m-%d %H:%M"}, {"", "+%H\n%M", false, "%H"}, {"iso", "x", true, "%Y-%m-%d"},
	} {
		t.Setenv("TIME_STYLE", c.env)
		got, err := TimeFormat(c.style, c.given)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("TimeFormat(%q, %v) with TIME_STYLE=%q: %q, %v; want %q", c.style, c.given, c.env, got, err, c.want)
		}
	}
}
