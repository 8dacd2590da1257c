package dutree

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"
)

// readEntry reads an export of one file whose fields are fields.
func readEntry(fields string) (Node, error) {
	tr, _, err := Read(strings.NewReader(`[1,0,{},[{"name":"/"},{"name":"a",` + fields + `}]]`))
	if err != nil {
		return Node{}, err
	}
	return tr.Top.Entries()[0], nil
}

// TestReadErrorPlace: the line, column and byte an error names count white
// space, and a byte is quoted as itself only when printable ASCII.
func TestReadErrorPlace(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{" {}", "line 1, column 2 (byte 1): expected '[', found '{'"},
		{"\t\r\n  {}", "line 2, column 3 (byte 5): expected '[', found '{'"},
		{"\x1f", "line 1, column 1 (byte 0): expected '[', found byte 0x1f"},
		{"~", "line 1, column 1 (byte 0): expected '[', found '~'"},
		{"\x7f", "line 1, column 1 (byte 0): expected '[', found byte 0x7f"},
		{`[1,0,{},[{"name":"\u 000"}]]`, `line 1, column 22 (byte 21): ' ' in a \u escape`},
		{`[1,0,{},[{"name":"\u!000"}]]`, `line 1, column 22 (byte 21): '!' in a \u escape`},
	} {
		_, _, err := Read(strings.NewReader(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// TestReadSurrogates: a high surrogate pairs with a low one (\uDC00 to
// \uDFFF) that follows; any other half is U+FFFD.
func TestReadSurrogates(t *testing.T) {
	for _, c := range []struct{ esc, want string }{
		{`\udbff\udc00`, "\U0010FC00"},
		{`\udbff\udfff`, "\U0010FFFF"},
		{`\ud800\udc00`, "\U00010000"},
		{`\udbff\ue000`, "\uFFFD\uE000"},
		{`\udbff\udbff`, "\uFFFD\uFFFD"},
		{`\udbff\udbff\udfff`, "\uFFFD\U0010FFFF"},
		{`\udc00`, "\uFFFD"},
		{`\udbffx`, "\uFFFDx"},
	} {
		tr, _, err := Read(strings.NewReader(`[1,0,{},[{"name":"/"},{"name":"` + c.esc + `"}]]`))
		if err != nil {
			t.Errorf("%s: %v", c.esc, err)
			continue
		}
		if got := tr.Top.Entries()[0].Name; got != c.want {
			t.Errorf("%s read as %+q, want %+q", c.esc, got, c.want)
		}
	}
}

// TestReadNumberGrammar: numbers are JSON's, up to 64 bytes; an exponent
// may be 'e' or 'E' with a sign or none. What strconv would take beyond
// that ("1.", "1e", "-") is an error, as is no number at all.
func TestReadNumberGrammar(t *testing.T) {
	long := "1." + strings.Repeat("0", 62) // 64 bytes
	for _, c := range []struct {
		num  string
		want int64
		err  string
	}{
		{num: "2E3", want: 2000},
		{num: "2e+3", want: 2000},
		{num: "2E+3", want: 2000},
		{num: "25e-1", want: 2},
		{num: "2E-3", want: 0},
		{num: "-0", want: 0},
		{num: "1e63", want: math.MaxInt64},
		{num: long, want: 1},
		{num: long + "0", err: "line 1, column 108 (byte 107): a number too long"},
		{num: "1.", err: "line 1, column 45 (byte 44): expected a number"},
		{num: "1.e3", err: "line 1, column 47 (byte 46): expected a number"},
		{num: "1e", err: "line 1, column 45 (byte 44): expected a number"},
		{num: "1E+", err: "line 1, column 46 (byte 45): expected a number"},
		{num: "1e-", err: "line 1, column 46 (byte 45): expected a number"},
		{num: "-", err: "line 1, column 44 (byte 43): expected a number"},
		{num: "-01", err: "line 1, column 46 (byte 45): expected a number"},
		{num: "1-5", err: "line 1, column 46 (byte 45): expected a number"},
		{num: "x", err: "line 1, column 43 (byte 42): expected a number"},
		{num: "-1", err: "line 1, column 45 (byte 44): a negative size"},
	} {
		n, err := readEntry(`"asize":` + c.num)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: %v, want %q", c.num, err, c.err)
		case c.err == "" && (err != nil || n.Asize != c.want):
			t.Errorf("%s: %d, %v, want %d", c.num, n.Asize, err, c.want)
		}
	}
}

// TestReadBooleans: a flag is true, false or null (not set), white space
// before it allowed as ncdu allows it; anything else is an error.
func TestReadBooleans(t *testing.T) {
	for _, c := range []struct {
		fields string
		want   Flags
		err    string
	}{
		{fields: `"notreg": true`, want: NotReg},
		{fields: `"notreg":` + "\n\tfalse"},
		{fields: `"notreg":null`},
		{fields: `"notreg": null`},
		{fields: `"excluded": true`, want: Excluded},
		{fields: `"notreg":1`, err: "line 1, column 44 (byte 43): expected true or false"},
		{fields: `"notreg":nul`, err: "line 1, column 44 (byte 43): expected null"},
		{fields: `"notreg":True`, err: "line 1, column 44 (byte 43): expected true or false"},
	} {
		n, err := readEntry(c.fields)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: %v, want %q", c.fields, err, c.err)
		case c.err == "" && (err != nil || n.Flags != c.want):
			t.Errorf("%s: flags %b, %v, want %b", c.fields, n.Flags, err, c.want)
		}
	}
}

// TestReadVersions: major version 1 only; a minor one from 0 to 10,000,
// as ncdu reads it.
func TestReadVersions(t *testing.T) {
	for _, c := range []struct{ version, err string }{
		{"1,0", ""},
		{"1,1", ""},
		{"1,10000", ""},
		{"1,10001", "minor version 10001 out of range"},
		{"1,-1", "minor version -1 out of range"},
		{"0,0", "major version 0"},
		{"2,0", "major version 2"},
	} {
		_, _, err := Read(strings.NewReader(`[` + c.version + `,{},[{"name":"/"}]]`))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("version %s: %v", c.version, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("version %s: %v, want %q", c.version, err, c.err)
		}
	}
}

// TestReadErrorAfterTheEnd: a reader failing after the export's last byte
// fails the read, with its error.
func TestReadErrorAfterTheEnd(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`[1,0,{},[{"name":"/"},{"name":"a"}]]`), iotest.ErrReader(boom))
	if _, _, err := Read(r); !errors.Is(err, boom) {
		t.Errorf("err = %v, want the reader's", err)
	}
}

// TestReadEntryNumbers: the fields at zero, one and each side of their
// cut-offs: a size of 0 is a size, an mtime before 1970 is kept (far
// before, cut at math.MinInt64/2), and a file not marked hlnkc has at
// least one link.
func TestReadEntryNumbers(t *testing.T) {
	for _, c := range []struct {
		fields string
		want   Node
	}{
		{`"asize":0,"dsize":0`, Node{Nlink: 1}},
		{`"asize":1,"dsize":512`, Node{Asize: 1, Dsize: 512, Nlink: 1}},
		{`"mtime":0`, Node{Nlink: 1}},
		{`"mtime":1`, Node{Mtime: 1, Nlink: 1}},
		{`"mtime":-1`, Node{Mtime: -1, Nlink: 1}},
		{`"mtime":-100.5`, Node{Mtime: -100, Nlink: 1}},
		{`"mtime":-1e30`, Node{Mtime: math.MinInt64 / 2, Nlink: 1}},
		{`"nlink":0`, Node{Nlink: 1}},
		{`"nlink":2`, Node{Nlink: 2}},
		{`"hlnkc":true,"ino":7,"nlink":2`, Node{Ino: 7, Nlink: 2, Flags: HardLink}},
	} {
		n, err := readEntry(c.fields)
		got := Node{Asize: n.Asize, Dsize: n.Dsize, Ino: n.Ino, Mtime: n.Mtime, Nlink: n.Nlink, Flags: n.Flags}
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v, want %+v", c.fields, got, err, c.want)
		}
	}
}
