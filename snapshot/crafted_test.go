package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"
)

// craftedDir is a directory for craft to write: its path and entries.
type craftedDir struct {
	path    string
	entries []Entry
}

// craft writes a snapshot of dirs as the encoder writes it, on one
// device dev, with every key; edit, if set, changes the encoder before
// its end record.
func craft(t *testing.T, dev Device, dirs []craftedDir, edit func(*encoder)) []byte {
	t.Helper()
	var buf bytes.Buffer
	h := &Header{Keys: AllKeys, Start: 1e18, ClockStep: time.Millisecond, Root: "/r"}
	e := newEncoder(newBlockWriter(&buf), h, func(id uint64) Device { d := dev; d.ID = id; return d })
	for _, d := range dirs {
		self := Entry{Name: path.Base(d.path), Type: fs.ModeDir, FileID: 7, Device: dev.ID}
		if err := e.dir(d.path, &self, dev, d.entries); err != nil {
			t.Fatal(err)
		}
	}
	if edit != nil {
		edit(e)
	}
	if err := e.end(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCraftedReadsBack: what the encoder writes reads back as written: a
// device of each flag and of a granularity of 0, owners at the 32-bit
// limit, a directory's own name.
func TestCraftedReadsBack(t *testing.T) {
	for _, dev := range []Device{
		{ID: 5, FSType: 9, Granularity: 0, ChangeTimes: true},
		{ID: 5, Granularity: time.Second, DirTimes: true},
		{ID: 5, Granularity: 1, StableIDs: true},
		{ID: 5},
	} {
		file := bytes.Repeat([]byte{'f'}, 3)
		entries := []Entry{
			{Name: "a", Type: fs.ModeDir, FileID: 8, Device: 5},
			{Name: string(file), Size: 3, FileID: 9, Links: 1, UID: 1<<32 - 1, GID: 1<<32 - 1, Perm: 0o644, Device: 5},
		}
		snap := craft(t, dev, []craftedDir{{"", entries}, {"a", nil}}, nil)
		dirs, err := readAll(snap)
		if err != nil {
			t.Fatalf("%+v: %v", dev, err)
		}
		if len(dirs) != 2 || dirs[0].Device != dev || dirs[1].Self.Name != "a" || len(dirs[0].Entries) != 2 {
			t.Fatalf("%+v: read back as %+v", dev, dirs)
		}
		if got := dirs[0].Entries[1]; got.UID != 1<<32-1 || got.GID != 1<<32-1 {
			t.Errorf("%+v: owner %d:%d, want the 32-bit limit", dev, got.UID, got.GID)
		}
	}
}

// payloadOf is the single block's payload of a small snapshot.
func payloadOf(t *testing.T, snap []byte) []byte {
	t.Helper()
	br, err := newBlockReader(bytes.NewReader(snap))
	if err != nil {
		t.Fatal(err)
	}
	if err := br.next(); err != nil {
		t.Fatal(err)
	}
	p := bytes.Clone(br.cur)
	if err := br.next(); err != io.EOF {
		t.Fatalf("the snapshot is more than one block: %v", err)
	}
	return p
}

// readErr reads snap to its end and returns the error, checking that it
// is a FormatError saying why, and that it stays: a second Next returns
// it again.
func readErr(t *testing.T, what string, snap []byte, why string) {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(snap))
	for err == nil {
		_, err = rd.Next()
	}
	var fe *FormatError
	if !errors.As(err, &fe) || !bytes.Contains([]byte(fe.Reason), []byte(why)) {
		t.Errorf("%s: %v, want a FormatError: %s", what, err, why)
		return
	}
	if rd == nil {
		return // the header's error: there is no reader
	}
	if _, again := rd.Next(); again != err {
		t.Errorf("%s: after the error, Next gave %v", what, again)
	}
}

// TestCraftedErrors: a snapshot whose items are well framed but wrong is
// refused, saying why, and the error stays.
func TestCraftedErrors(t *testing.T) {
	dev := Device{ID: 5, Granularity: 1, DirTimes: true, StableIDs: true, ChangeTimes: true}
	one := []Entry{{Name: "f", Size: 1, FileID: 9, Links: 1, Perm: 0o644, Device: 5}}
	good := craft(t, dev, []craftedDir{{"", one}}, nil)
	if _, err := readAll(good); err != nil {
		t.Fatal(err)
	}
	readErr(t, "a path of an empty name", craft(t, dev, []craftedDir{{"", nil}, {"a//b", nil}}, nil), "bad path")
	readErr(t, "the end record's count of entries off by one", craft(t, dev, []craftedDir{{"", one}}, func(e *encoder) { e.entries++ }), "the end record counts")
	p := payloadOf(t, good)
	readErr(t, "the end record cut short", frame(p[:len(p)-1]), "cut short")
	rd, err := NewReader(bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	// The root's head: tagDir, the shared length and the suffix's (0, 0),
	// then its flags, dirDevice, which the root must have.
	head := rd.br.off
	if p[head] != tagDir || p[head+3] != dirDevice {
		t.Fatalf("the root's head begins %x", p[head:head+4])
	}
	noDev := bytes.Clone(p)
	noDev[head+3] = 0
	readErr(t, "a root with no device", frame(noDev), "the root has no device")
	var buf bytes.Buffer
	bw := newBlockWriter(&buf)
	bw.block(p)
	bw.block([]byte{tagDir})
	bw.block(nil)
	readErr(t, "a block after the end record", buf.Bytes(), "data after the end record")
}

// TestRacyAtTheLimit: an entry is racy when a time of its is later than
// the snapshot's start less its file system's granularity and the clock's
// step; at that limit it is not.
func TestRacyAtTheLimit(t *testing.T) {
	h := &Header{Start: 10_000, ClockStep: 100}
	d := &Device{Granularity: 1000}
	limit := int64(10_000 - 1000 - 100)
	for _, c := range []struct {
		mtime, ctime int64
		want         bool
	}{{limit, limit, false}, {limit + 1, limit, true}, {limit, limit + 1, true}, {limit - 1, limit - 1, false}} {
		if got := racy(h, d, &Entry{ModTime: c.mtime, ChangeTime: c.ctime}); got != c.want {
			t.Errorf("times %d, %d (limit %d): racy %v", c.mtime, c.ctime, limit, got)
		}
	}
}

// TestCraftedEntries: an entry on another device than its directory's
// reads back with its own, one of device 0 (unknown) with its
// directory's; a directory's entries fill several blocks and read back
// whole; a name the writer was given with a slash or a NUL in it, and a
// header cut inside its root's name, are refused.
func TestCraftedEntries(t *testing.T) {
	dev := Device{ID: 5, Granularity: 1, StableIDs: true}
	entries := []Entry{
		{Name: "mnt", Type: fs.ModeDir, FileID: 2, Device: 6},
		{Name: "zero", Size: 1, FileID: 3, Links: 1, Device: 0},
	}
	dirs, err := readAll(craft(t, dev, []craftedDir{{"", entries}}, nil))
	if err != nil || len(dirs) != 1 || len(dirs[0].Entries) != 2 {
		t.Fatalf("read back %v, %v", dirs, err)
	}
	if got := dirs[0].Entries; got[0].Device != 6 || got[1].Device != 5 {
		t.Errorf("devices read back %d and %d, want 6 and the directory's 5", got[0].Device, got[1].Device)
	}

	var many []Entry
	for i := range 3000 {
		many = append(many, Entry{Name: fmt.Sprintf("%04d-%s", i, strings.Repeat("n", 40)), Size: int64(i), FileID: uint64(i + 10), Links: 1, Device: 5})
	}
	snap := craft(t, dev, []craftedDir{{"", many}}, nil)
	if len(snap) < 2*blockTarget {
		t.Fatalf("%d bytes: the entries fit in one block", len(snap))
	}
	dirs, err = readAll(snap)
	if err != nil || len(dirs) != 1 || len(dirs[0].Entries) != len(many) || dirs[0].Entries[2999].Size != 2999 {
		t.Fatalf("3,000 entries over several blocks: %d directories, %v", len(dirs), err)
	}

	for _, name := range []string{"a/b", "a\x00b"} {
		bad := []Entry{{Name: name, Size: 1, FileID: 3, Links: 1, Device: 5}}
		readErr(t, fmt.Sprintf("the name %q", name), craft(t, dev, []craftedDir{{"", bad}}, nil), "name")
	}

	good := craft(t, dev, []craftedDir{{"", nil}}, nil)
	rd, err := NewReader(bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	p := payloadOf(t, good)
	// The header ends with the root's length, "/r" and the count of
	// patterns: cut after the root's first byte.
	head := rd.br.off
	if string(p[head-3:head-1]) != "/r" {
		t.Fatalf("the header ends %q", p[:head])
	}
	readErr(t, "a header cut in its root's name", frame(p[:head-2]), "cut short")
}

// TestEncoderRefusesDisorder: the writer refuses a directory written
// twice or before one it follows, and an entry whose name repeats the
// previous one.
func TestEncoderRefusesDisorder(t *testing.T) {
	dev := Device{ID: 5}
	for _, c := range []struct {
		what string
		dirs []craftedDir
	}{
		{"a directory twice", []craftedDir{{"", nil}, {"a", nil}, {"a", nil}}},
		{"a directory before one it follows", []craftedDir{{"", nil}, {"b", nil}, {"a", nil}}},
		{"a name twice", []craftedDir{{"", []Entry{{Name: "x", Device: 5}, {Name: "x", Device: 5}}}}},
	} {
		var buf bytes.Buffer
		e := newEncoder(newBlockWriter(&buf), &Header{Keys: AllKeys}, func(uint64) Device { return dev })
		var err error
		for _, d := range c.dirs {
			if err = e.dir(d.path, &Entry{Type: fs.ModeDir, Device: 5}, dev, d.entries); err != nil {
				break
			}
		}
		if err == nil {
			t.Errorf("%s: written", c.what)
		}
	}
}

// TestHeaderFillsItsBlock: a header longer than a block's target (an
// exclusion pattern of 70,000 bytes) is a block of its own, its last
// pattern ending the block, and reads back.
func TestHeaderFillsItsBlock(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "f")
	long := strings.Repeat("p", 70_000)
	snap := take(t, dir, &Options{Exclude: []string{long}})
	rd, err := NewReader(bytes.NewReader(snap))
	if err != nil {
		t.Fatal(err)
	}
	if h := rd.Header(); len(h.Exclude) != 1 || h.Exclude[0] != long || rd.br.off != len(rd.br.cur) {
		t.Errorf("header read back with %d patterns, %d of %d bytes of its block used", len(h.Exclude), rd.br.off, len(rd.br.cur))
	}
	if _, err := readAll(snap); err != nil {
		t.Error(err)
	}
}

// compareCrafted compares two snapshots and returns the changes' lines.
func compareCrafted(t *testing.T, old, cur []byte, opts *CompareOptions) ([]string, error) {
	t.Helper()
	var got []string
	err := CompareSnapshots(context.Background(), bytes.NewReader(old), bytes.NewReader(cur), opts, func(c *Change) error {
		got = append(got, line(c))
		return nil
	})
	return got, err
}

// TestCompareSnapshotsOrphan: a later snapshot holding a directory that
// no directory of it lists is refused, once the rest is compared.
func TestCompareSnapshotsOrphan(t *testing.T) {
	dev := Device{ID: 5, Granularity: 1, StableIDs: true, ChangeTimes: true}
	x := []Entry{{Name: "x", Size: 1, FileID: 9, Links: 1, Device: 5}}
	old := craft(t, dev, []craftedDir{{"", x}}, nil)
	cur := craft(t, dev, []craftedDir{{"", x}, {"zz", nil}}, nil)
	if _, err := compareCrafted(t, old, cur, nil); !errors.Is(err, ErrFormat) {
		t.Errorf("a later snapshot with an orphan directory: %v, want ErrFormat", err)
	}
}

// TestMoveNeedsTheSameContents: a file removed and one added with its
// inode number but another size and time is the inode used again, not a
// move.
func TestMoveNeedsTheSameContents(t *testing.T) {
	dev := Device{ID: 5, Granularity: 1, StableIDs: true, ChangeTimes: true}
	a := []Entry{{Name: "a", Size: 1, ModTime: 1e9, FileID: 9, Links: 1, Device: 5}}
	b := []Entry{{Name: "b", Size: 2, ModTime: 2e9, FileID: 9, Links: 1, Device: 5}}
	moved := []Entry{{Name: "b", Size: 1, ModTime: 1e9, FileID: 9, Links: 1, Device: 5}}
	old := craft(t, dev, []craftedDir{{"", a}}, nil)
	for _, c := range []struct {
		cur  []Entry
		want []string
	}{{b, []string{"D a", "A b"}}, {moved, []string{"R a -> b"}}} {
		got, err := compareCrafted(t, old, craft(t, dev, []craftedDir{{"", c.cur}}, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		equalLines(t, "changes", got, c.want)
	}
}
