package snapshot

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// formatTree is a small tree with every type of entry Take records.
func formatTree(t testing.TB) string {
	dir := t.TempDir()
	build(t, dir, "a/x", "a/y", "a/yy/z", "b/", "e", "l -> e", "long-name-prefix-1", "long-name-prefix-2", "odd\nname")
	settle()
	return dir
}

// readAll reads every directory of a snapshot.
func readAll(snap []byte) ([]*Dir, error) {
	rd, err := NewReader(bytes.NewReader(snap))
	if err != nil {
		return nil, err
	}
	var dirs []*Dir
	for {
		d, err := rd.Next()
		if err == io.EOF {
			return dirs, nil
		}
		if err != nil {
			return dirs, err
		}
		dirs = append(dirs, d)
	}
}

// TestRoundTrip: what Take writes reads back as the tree's directories in
// path order, each entry as a stat finds it.
func TestRoundTrip(t *testing.T) {
	dir := formatTree(t)
	snap := take(t, dir, nil)
	dirs, err := readAll(snap)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range dirs {
		paths = append(paths, d.Path)
	}
	equalLines(t, "directories", paths, []string{"", "a", "a/yy", "b"})
	root := dirs[0]
	df, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDir(df)
	var names []string
	for _, e := range root.Entries {
		names = append(names, e.Name)
		want, err := statAt(df, e.Name, AllKeys)
		if err != nil {
			t.Fatal(err)
		}
		if e != want {
			t.Errorf("entry %q reads back as\n%+v, a stat gives\n%+v", e.Name, e, want)
		}
	}
	equalLines(t, "root entries", names, []string{"a", "b", "e", "l", "long-name-prefix-1", "long-name-prefix-2", "odd\nname"})
}

// TestKeysLeaveFieldsOut: a snapshot of fewer keys holds none of the
// others, and compares on the ones it has.
func TestKeysLeaveFieldsOut(t *testing.T) {
	dir := formatTree(t)
	snap := take(t, dir, &Options{Keys: KeySize})
	dirs, err := readAll(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range dirs[0].Entries {
		if e.ModTime != 0 || e.FileID != 0 || e.Perm != 0 || e.Target != "" || e.Links != 0 {
			t.Errorf("%q holds fields not asked for: %+v", e.Name, e)
		}
	}
	full := take(t, dir, nil)
	if len(snap) >= len(full) {
		t.Errorf("a snapshot of sizes only is %d bytes, of every key %d", len(snap), len(full))
	}
}

// TestCorruptionIsAnError: every byte flipped, and every truncation, is
// an error wrapping ErrFormat, never a different listing.
func TestCorruptionIsAnError(t *testing.T) {
	snap := take(t, formatTree(t), nil)
	want, err := readAll(snap)
	if err != nil {
		t.Fatal(err)
	}
	for i := range snap {
		bad := bytes.Clone(snap)
		bad[i] ^= 0x55
		checkBroken(t, bad, want, "byte %d flipped", i)
	}
	for n := range len(snap) {
		checkBroken(t, snap[:n], want, "cut at %d", n)
	}
	checkBroken(t, append(bytes.Clone(snap), 0), want, "a byte appended")
}

// checkBroken reads a damaged snapshot: it must end in a FormatError, and
// what it returned before must be what the whole one holds.
func checkBroken(t *testing.T, bad []byte, want []*Dir, format string, args ...any) {
	t.Helper()
	got, err := readAll(bad)
	var fe *FormatError
	if !errors.As(err, &fe) || !errors.Is(err, ErrFormat) {
		t.Fatalf(format+": error %v, want a FormatError", append(args, err)...)
	}
	if fe.Offset < 0 || fe.Offset > int64(len(bad)) {
		t.Errorf(format+": offset %d outside the file", append(args, fe.Offset)...)
	}
	for i, d := range got {
		if !sameDir(d, want[i]) {
			t.Fatalf(format+": directory %d read as %+v", append(args, i, d)...)
		}
	}
}

func sameDir(a, b *Dir) bool {
	if a.Path != b.Path || a.Self != b.Self || a.Device != b.Device || len(a.Entries) != len(b.Entries) {
		return false
	}
	for i := range a.Entries {
		if a.Entries[i] != b.Entries[i] {
			return false
		}
	}
	return true
}

// TestWrongVersion names the version found.
func TestWrongVersion(t *testing.T) {
	snap := take(t, formatTree(t), nil)
	snap[len(magic)] = 9
	_, err := NewReader(bytes.NewReader(snap))
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Offset != int64(len(magic)) || !bytes.Contains([]byte(err.Error()), []byte("version 9")) {
		t.Errorf("got %v, want a FormatError at byte %d naming version 9", err, len(magic))
	}
}

// FuzzRead: no input makes the reader panic or loop, and any error it
// gives is a FormatError inside the input.
func FuzzRead(f *testing.F) {
	snap := take(f, formatTree(f), nil)
	f.Add(snap)
	f.Add(snap[:len(snap)/2])
	f.Add([]byte(magic + "\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := readAll(b)
		if err == nil {
			return
		}
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("error %v is not a FormatError", err)
		}
		if fe.Offset < 0 || fe.Offset > int64(len(b)) {
			t.Fatalf("offset %d outside the %d bytes", fe.Offset, len(b))
		}
	})
}

// frame wraps payload in the magic, one checked block and the end marker,
// so that a fuzzer's bytes reach the item decoders past the checksums.
func frame(payload []byte) []byte {
	var buf bytes.Buffer
	bw := newBlockWriter(&buf)
	bw.block(payload)
	bw.block(nil)
	return buf.Bytes()
}

// payloads returns the items of a real snapshot, unframed: a single
// block's payload, for a small tree.
func payload(t testing.TB, snap []byte) []byte {
	br, err := newBlockReader(bytes.NewReader(snap))
	if err != nil {
		t.Fatal(err)
	}
	if err := br.next(); err != nil {
		t.Fatal(err)
	}
	return br.cur
}

// FuzzReadItems: the item decoders, given any bytes in a well-checked
// block, return directories or a FormatError, never panic, and never hand
// out names that could not be a directory's.
func FuzzReadItems(f *testing.F) {
	snap := take(f, formatTree(f), nil)
	p := payload(f, snap)
	f.Add(p)
	f.Add(p[:len(p)/3])
	f.Fuzz(func(t *testing.T, b []byte) {
		dirs, err := readAll(frame(b))
		var fe *FormatError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("error %v is not a FormatError", err)
		}
		for _, d := range dirs {
			for _, e := range d.Entries {
				if !validName(e.Name) {
					t.Fatalf("entry name %q handed out", e.Name)
				}
			}
		}
	})
}
