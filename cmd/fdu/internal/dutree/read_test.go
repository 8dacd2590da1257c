package dutree

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// flatten lists every entry of t as a line: path, sizes, flags, link
// count, device where it is a directory's, mtime when asked.
func flatten(t *Tree, mtime bool) []string {
	var out []string
	var walk func(n *Node, path string)
	walk = func(n *Node, path string) {
		line := fmt.Sprintf("%q a=%d d=%d f=%b", path, n.Asize, n.Dsize, n.Flags)
		if n.Flags&HardLink != 0 {
			line += fmt.Sprintf(" ino=%d n=%d", n.Ino, n.Nlink)
		}
		if mtime {
			line += fmt.Sprintf(" m=%d", n.Mtime)
		}
		if n.Dir != nil {
			line += fmt.Sprintf(" dev=%d total=%d/%d items=%d", n.Dir.Dev, n.Dir.Asize, n.Dir.Dsize, n.Dir.Items)
		}
		out = append(out, line)
		if n.Dir != nil {
			for _, k := range byName(n.Dir) {
				walk(&k, path+"/"+k.Name)
			}
		}
	}
	root := t.Root()
	walk(&root, root.Name)
	return out
}

func export(t *testing.T, tr *Tree, mtime bool) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, tr, WriteOptions{Meta: Meta{Progname: "fdu", Progver: "test", Timestamp: 1}, Mtime: mtime}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadMalformed(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "line 1, column 1 (byte 0): unexpected end of file: expected '['"},
		{`{}`, "line 1, column 1 (byte 0): expected '[', found '{'"},
		{`[2,0,{},[{"name":"/"}]]`, "major version 2"},
		{`[1,0,{},[{"name":"/"}]`, "unexpected end of file: expected ']'"},
		{"[1,0,{},\n[{\"name\":\"/\"},\n{\"asize\":1}]]", "line 3, column 12 (byte 35): an entry without a name"},
		{`[1,0,{},[{"name":"/"},{"name":"a","asize":-1}]]`, "a negative size"},
		{`[1,0,{},[{"name":"/"},{"name":"a","asize":01}]]`, "expected a number"},
		{"[1,0,{},[{\"name\":\"/\"},{\"name\":\"a\x01\"}]]", "a control character (0x01) inside a string"},
		{`[1,0,{},[{"name":"/"},{"name":"a\q"}]]`, `an unknown escape \q`},
		{`[1,0,{},[{"name":"/"},{"name":"a","x":[1 2]}]]`, "expected ',' or ']', found '2'"},
		{`[1,0,{},[{"name":"/"},{"name":"a","x":{"k" 1}}]]`, "expected ':', found '1'"},
		{`[1,0,{},[{"name":"/"},"a"]]`, "expected an entry"},
		{`[1,0,{},[{"name":"/"}]] x`, "data after the end of the export"},
		{`[1,0,{},[{"name":"/"},[{"name":"a"},[{"name":"b"}]]`, `unexpected end of file inside directory "/"`},
		{`[1,0,{},[{"name":5}]]`, "a name must be a string"},
	} {
		_, _, err := Read(strings.NewReader(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a SyntaxError with %q", c.in, err, c.want)
		}
	}
}

func TestReadDeep(t *testing.T) {
	const depth = 200000
	var b strings.Builder
	b.WriteString(`[1,2,{},`)
	for i := range depth {
		fmt.Fprintf(&b, `[{"name":"d%d","asize":1},`, i)
	}
	b.WriteString(`{"name":"f","asize":5}`)
	b.WriteString(strings.Repeat("]", depth+1))
	tr, _, err := Read(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Top.Asize != depth+5 || tr.Top.Items != depth {
		t.Errorf("totals %d, %d items", tr.Top.Asize, tr.Top.Items)
	}
}

func TestReadEscapesAndUnknownFields(t *testing.T) {
	in := `[1,3,{"progname":"x","extra":[1,{"a":[true,false,null,-1.5e3]}]},
[{"name":"/r","dev":7,"future":{"deep":[[]]}},
{"name":"\u00fc\ud83d\ude00\ud800x\/","asize":3,"mode":41471,"excluded":"frmlnk"},
{"name":"raw` + "\xff" + `","asize":2e3,"hlnkc":true,"ino":9,"nlink":3,"excluded":"otherfs","notreg":false}]]`
	tr, meta, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if meta.Progname != "x" {
		t.Errorf("progname %q", meta.Progname)
	}
	k := tr.Top.Entries()
	if len(k) != 2 || k[1].Name != "raw\xff" || k[0].Name != "ü😀\uFFFDx/" {
		t.Fatalf("names %q", []string{k[0].Name, k[1].Name})
	}
	if k[1].Asize != 2000 || k[1].Flags != HardLink|OtherFS || k[1].Nlink != 3 || k[0].Flags != Symlink|Excluded {
		t.Errorf("entries %+v", k)
	}
	if tr.Top.Dev != 7 {
		t.Errorf("dev %d", tr.Top.Dev)
	}
}

// FuzzRead: any input reads or fails with a SyntaxError, never a panic;
// what reads writes out and reads back the same.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`[1,2,{"progname":"ncdu"},[{"name":"/r","asize":1,"dsize":4096,"dev":3},{"name":"a\u0001\xff","hlnkc":true,"ino":4,"nlink":2},[{"name":"d","read_error":true},{"name":"e","excluded":"pattern"}]]]`))
	f.Add([]byte(`[1,0,{},[{"name":"/"},{"name":"x","y":[1,{"z":null}]}]]`))
	f.Add([]byte(`[1,2,{},[{"name":"/r"},{"name":"f","asize":5},[{"name":"u","read_error":true,"unfinished":true}]]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, _, err := Read(bytes.NewReader(data))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("not a SyntaxError: %v", err)
			}
			return
		}
		out := export(t, tr, true)
		back, _, err := Read(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("our own export does not read: %v\n%s", err, out)
		}
		if got, want := strings.Join(flatten(back, true), "\n"), strings.Join(flatten(tr, true), "\n"); got != want {
			t.Fatalf("round trip:\n%s\n%s", got, want)
		}
	})
}

// byName is d's entries in name order: the trees compared come in
// different listing orders.
func byName(d *Dir) []Node {
	kids := d.Entries()
	slices.SortFunc(kids, func(a, b Node) int { return strings.Compare(a.Name, b.Name) })
	return kids
}

// TestReadTooDeep: nesting past maxDepth is an error, not a stack overflow
// in Recount (8,000,000 levels).
func TestReadTooDeep(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[1,2,{},`)
	for range maxDepth + 1 {
		b.WriteString(`[{"name":"d"},`)
	}
	_, _, err := Read(strings.NewReader(b.String()))
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 1000000") {
		t.Errorf("%v", err)
	}
}

// TestReadHugeNumbers: sizes past int64 saturate, and what reads writes
// out and reads back.
func TestReadHugeNumbers(t *testing.T) {
	in := `[1,2,{},[{"name":"/r"},{"name":"a","asize":9223372036854775807,"dsize":1e400},{"name":"b","asize":1e19},{"name":"c","asize":5}]]`
	tr, _, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Top.Asize != math.MaxInt64 || tr.Top.Dsize != math.MaxInt64 {
		t.Errorf("totals %d %d", tr.Top.Asize, tr.Top.Dsize)
	}
	if _, _, err := Read(bytes.NewReader(export(t, tr, false))); err != nil {
		t.Errorf("our export of it: %v", err)
	}
}
