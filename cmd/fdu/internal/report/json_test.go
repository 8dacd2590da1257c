package report

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
)

// jsonEntry is an entry of the JSON view as encoding/json writes it: its
// fields, their names and their order are the format printJSON writes.
type jsonEntry struct {
	Name      string       `json:"name"`
	NameBytes []byte       `json:"name_bytes,omitempty"`
	Size      uint64       `json:"size"`
	Inodes    uint64       `json:"inodes"`
	Dir       bool         `json:"dir,omitempty"`
	Error     bool         `json:"error,omitempty"`
	Children  []*jsonEntry `json:"children,omitempty"`
}

// appendTestJSON appends e as appendJSON appends a directory's entry and
// its children.
func appendTestJSON(b []byte, e *jsonEntry) []byte {
	var dir *du.Dir
	if e.Dir {
		dir = &du.Dir{}
	}
	b = appendJSONFields(b, entry{name: e.Name, size: e.Size, inodes: e.Inodes, dir: dir, failed: e.Error})
	if len(e.Children) > 0 {
		b = append(b, `,"children":[`...)
		for i, c := range e.Children {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTestJSON(b, c)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// encodingJSON is what printJSON must match: encoding/json's Encoder
// without HTML escaping.
func encodingJSON(t testing.TB, v any) string {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestJSONFieldsMatchEncodingJSON: odd names, sizes and flags, nested,
// read as encoding/json writes them; no roots are an empty array.
func TestJSONFieldsMatchEncodingJSON(t *testing.T) {
	odd := []string{"", "plain", "quote\"back\\slash", "new\nline\ttab\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"caf\xc3\xa9", "bad\xffbyte", "\xe2\x80\xa8\xe2\x80\xa9", "cut\xe2\x80", "<&>", "\xf0\x9f\x98\x80", "\xed\xa0\x80"}
	for b := range 256 {
		odd = append(odd, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	var roots []*jsonEntry
	for i, name := range odd {
		v := &jsonEntry{Name: name, Size: uint64(i) << 40, Inodes: uint64(i), Dir: i%2 == 0, Error: i%3 == 0}
		if i%5 == 0 {
			v.Children = []*jsonEntry{{Name: name + "/child", Size: 1, Inodes: 1}, {Name: "x", Dir: true, Children: []*jsonEntry{{Name: name}}}}
		}
		roots = append(roots, v)
	}
	b := []byte{'['}
	for i, v := range roots {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTestJSON(b, v)
	}
	var got strings.Builder
	got.Write(append(b, ']', '\n'))
	var withBytes func(vs []*jsonEntry)
	withBytes = func(vs []*jsonEntry) {
		for _, v := range vs {
			if !utf8.ValidString(v.Name) {
				v.NameBytes = []byte(v.Name)
			}
			withBytes(v.Children)
		}
	}
	withBytes(roots)
	if want := encodingJSON(t, roots); got.String() != want {
		for i := range min(len(want), len(got.String())) {
			if want[i] != got.String()[i] {
				t.Fatalf("differs at byte %d:\n got %q\nwant %q", i, got.String()[max(0, i-40):min(len(got.String()), i+40)], want[max(0, i-40):min(len(want), i+40)])
			}
		}
		t.Fatalf("lengths %d and %d", got.Len(), len(want))
	}
	var empty strings.Builder
	(&Views{}).printJSON(&empty)
	if want := encodingJSON(t, []*jsonEntry{}); empty.String() != want {
		t.Errorf("no roots: %q, want %q", empty.String(), want)
	}
}

// FuzzJSONString: any string is quoted as encoding/json quotes it.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\xff", "\xe2\x80\xa8", "\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := string(appendJSONString(nil, s)) + "\n"
		if want := encodingJSON(t, s); got != want {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
