package locale

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"testing"
)

// TestArchiveFind: names found through the hash table's probes in a
// table small enough that they collide, and names it does not hold.
func TestArchiveFind(t *testing.T) {
	locales := map[string][lcLast][]byte{}
	for i := range 9 {
		locales[fmt.Sprintf("l%d.utf8", i)] = localeCats("UTF-8", nil)
	}
	b := archiveBytes(locales, 11)
	a := readArchive(bytes.NewReader(b), int64(len(b)))
	if a == nil {
		t.Fatal("the archive was not read")
	}
	for name := range locales {
		spans, ok := a.find(name)
		if !ok {
			t.Errorf("%s not found", name)
			continue
		}
		if _, err := readData(ctype, a.f, spans[0].off, spans[0].size, true); err != nil {
			t.Errorf("%s: its LC_CTYPE: %v", name, err)
		}
	}
	for _, name := range []string{"l9.utf8", "", "l1.UTF-8", "l1"} {
		if _, ok := a.find(name); ok {
			t.Errorf("%q found", name)
		}
	}
	// A removed locale keeps its name with no record.
	for i := 56; i < 56+12*11; i += 12 {
		binary.NativeEndian.PutUint32(b[i+8:], 0)
	}
	if _, ok := readArchive(bytes.NewReader(b), int64(len(b))).find("l3.utf8"); ok {
		t.Error("a removed locale found")
	}
}

// TestInstalledArchiveHashes: every name in the machine's archive sits
// under the hash hashName gives it, as glibc's localedef computed it.
func TestInstalledArchiveHashes(t *testing.T) {
	b, err := os.ReadFile(glibc.archive)
	if err != nil {
		t.Skipf("skipping: no locale archive: %v", err)
	}
	a := readArchive(bytes.NewReader(b), int64(len(b)))
	if a == nil {
		t.Fatal("the machine's archive was not read")
	}
	n := 0
	for i := range a.hashSize {
		ent := int64(a.hashOff) + 12*int64(i)
		if off := a.word(ent + 4); off != 0 {
			name := a.nameAt(off)
			if got := hashName(name); got != a.word(ent) {
				t.Errorf("%q: hash %#x, the archive has %#x", name, got, a.word(ent))
			}
			if _, ok := a.find(name); !ok && a.word(ent+8) != 0 {
				t.Errorf("%q not found", name)
			}
			n++
		}
	}
	t.Logf("%d names", n)
}

// FuzzArchive: any bytes as an archive, looked up, read nothing outside
// them and always end.
func FuzzArchive(f *testing.F) {
	f.Add(archiveBytes(map[string][lcLast][]byte{"en_US.utf8": localeCats("UTF-8", []rune{'é'})}, 5), "en_US.utf8")
	f.Add(archiveBytes(map[string][lcLast][]byte{"a": localeCats("X", nil), "b": localeCats("Y", nil)}, 3), "b")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		a := readArchive(bytes.NewReader(b), int64(len(b)))
		if a == nil {
			return
		}
		spans, ok := a.find(name)
		if !ok {
			return
		}
		for _, c := range categories {
			if d, err := readData(c, a.f, spans[c.num].off, spans[c.num].size, c == ctype); err == nil && c == ctype {
				useCtype(newCtype(d))
			}
		}
	})
}

// FuzzCtypeData: any bytes as LC_CTYPE's data are read, or refused,
// without reading past them.
func FuzzCtypeData(f *testing.F) {
	f.Add(catData(ctype, "UTF-8", 6, []rune{'é', 0x10fffd, 0x1f600}))
	f.Add(catData(ctype, "ISO-8859-1", 1, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := readData(ctype, bytes.NewReader(b), 0, int64(len(b)), true)
		if err != nil {
			return
		}
		useCtype(newCtype(d))
		for i := -1; i < 90; i++ {
			d.str(i)
			d.word(i)
		}
	})
}

// useCtype asks c everything.
func useCtype(c *Ctype) {
	c.UTF8()
	c.Unibyte()
	for _, r := range []rune{0, 'a', 0x7f, 0x80, 'é', 0xffff, 0x10000, 0x1f600, 0x10ffff, 0x110000, 0x7fffffff, -1} {
		c.IsWPrint(r)
	}
	for b := range 256 {
		c.IsPrint(byte(b))
	}
}

func TestAliasLine(t *testing.T) {
	for line, want := range map[string][2]string{
		"english\ten_US.ISO-8859-1": {"english", "en_US.ISO-8859-1"},
		"  a   b  c":                {"a", "b"},
		"a\vb\r":                    {"a", "b"},
		"# a b":                     {},
		"#a b":                      {},
		"a":                         {},
		"":                          {},
	} {
		alias, value, ok := aliasLine(line)
		if ok != (want[0] != "") || alias != want[0] || value != want[1] {
			t.Errorf("aliasLine(%q) = %q, %q, %v; want %q", line, alias, value, ok, want)
		}
	}
}

// FuzzAliasLine: an alias and its value are words without white space.
func FuzzAliasLine(f *testing.F) {
	f.Add("english\ten_US.ISO-8859-1")
	f.Add("  # x y")
	f.Fuzz(func(t *testing.T, line string) {
		alias, value, ok := aliasLine(line)
		if ok && (alias == "" || value == "" || bytes.ContainsAny([]byte(alias+value), " \t\n\v\f\r")) {
			t.Errorf("aliasLine(%q) = %q, %q", line, alias, value)
		}
	})
}
