//go:build linux || darwin || windows

package frd

import (
	"errors"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// fakeVolume answers GetFileInformationByHandleEx for one directory handle
// as MS-FSA describes a file system doing it: a restart class moves the
// scan to the first entry; the handle's first query on an empty directory
// answers STATUS_NO_SUCH_FILE (ERROR_FILE_NOT_FOUND) whatever the class, a
// later one at the end ERROR_NO_MORE_FILES; a record that does not fit
// the buffer is ERROR_MORE_DATA, the scan staying where it was.
type fakeVolume struct {
	names   []string
	pos     int
	queried bool
	extdErr error // the answer to an ID_EXTD class, if refused
	calls   int
}

func (v *fakeVolume) query(class uint32, buf []byte) error {
	v.calls++
	extd := class == classExtd || class == classExtdRestart
	if extd && v.extdErr != nil {
		return v.extdErr
	}
	if class == classFullRestart || class == classExtdRestart {
		v.pos = 0
	}
	first := !v.queried
	v.queried = true
	if v.pos >= len(v.names) {
		if first {
			return errFileNotFound
		}
		return errNoMoreFiles
	}
	var recs []dirInfoRecord
	size := 0
	for _, n := range v.names[v.pos:] {
		r := dirInfoRecord{name: n, size: int64(len(n)), idLo: uint64(len(n))}
		if b := len(r.bytes(extd)); size+b <= len(buf) {
			recs, size = append(recs, r), size+b
			continue
		}
		break
	}
	if len(recs) == 0 {
		return errMoreData
	}
	clear(buf)
	copy(buf, chain(extd, recs...))
	v.pos += len(recs)
	return nil
}

// TestQueryDirEmptyRoot: a volume's root has no "." or "..": its first
// query finds nothing, and answers ERROR_FILE_NOT_FOUND with the plain
// classes too, not only with a restart class.
func TestQueryDirEmptyRoot(t *testing.T) {
	for _, l := range []*Lister{{}, {Rewind: true}, {Names: true}} {
		v := &fakeVolume{}
		es, err := l.queryDir(nil, &dirQuery{}, v.query)
		if err != nil || len(es) != 0 {
			t.Errorf("Rewind %v Names %v: %q, %v; want an empty listing", l.Rewind, l.Names, names(es), err)
		}
	}
}

// TestQueryDirNotFoundLater: ERROR_FILE_NOT_FOUND after records is no end
// of the directory (a filter driver may answer it for
// STATUS_OBJECT_NAME_NOT_FOUND): an error, with the records read before.
func TestQueryDirNotFoundLater(t *testing.T) {
	old := windowsBufSize
	windowsBufSize = 120 // one record a call
	defer func() { windowsBufSize = old }()
	v := &fakeVolume{names: []string{"a", "b"}}
	q := func(class uint32, buf []byte) error {
		if v.calls == 1 {
			v.calls++
			return errFileNotFound
		}
		return v.query(class, buf)
	}
	var l Lister
	es, err := l.queryDir(nil, &dirQuery{}, q)
	if !errors.Is(err, errFileNotFound) || !slices.Equal(names(es), []string{"a"}) {
		t.Errorf("%q, %v; want [a] and ERROR_FILE_NOT_FOUND", names(es), err)
	}
}

// TestQueryDirNoFileIDs: a volume or filter driver without the ID_EXTD
// class answers any of three errors; each falls back to the FULL class.
func TestQueryDirNoFileIDs(t *testing.T) {
	want := []string{"a", "bb"} // "." and ".." are left out
	for _, refusal := range []error{errInvalidParameter, errNotSupported, errInvalidLevel} {
		v := &fakeVolume{names: append([]string{".", ".."}, want...), extdErr: refusal}
		var l Lister
		es, err := l.queryDir(nil, &dirQuery{}, v.query)
		if err != nil || !slices.Equal(names(es), want) {
			t.Errorf("ID_EXTD refused with %v: %q, %v; want %q", refusal, names(es), err, want)
			continue
		}
		if es[0].FileID != 0 || es[0].Size != 1 {
			t.Errorf("FULL class: %+v, want Size 1 and no FileID", es[0])
		}
	}
	v := &fakeVolume{names: want, extdErr: syscall.Errno(5)} // ERROR_ACCESS_DENIED is no refusal of the class
	var l Lister
	if _, err := l.queryDir(nil, &dirQuery{}, v.query); !errors.Is(err, syscall.Errno(5)) {
		t.Errorf("ERROR_ACCESS_DENIED: %v, want it returned", err)
	}
}

// TestQueryDirMoreData: a record larger than the buffer restarts the scan
// with a larger one. From the first entry (Rewind) every entry comes once,
// in order; from a handle read before, whose position is not known, a
// restart would list again what came before it, so it is an error.
func TestQueryDirMoreData(t *testing.T) {
	old := windowsBufSize
	windowsBufSize = 200
	defer func() { windowsBufSize = old }()
	all := []string{".", "..", "a", "b", strings.Repeat("long", 30), "c", strings.Repeat("longer", 40), "d"}
	want := all[2:]

	v := &fakeVolume{names: all}
	l := Lister{Rewind: true}
	es, err := l.queryDir(nil, &dirQuery{}, v.query)
	if err != nil || !slices.Equal(names(es), want) {
		t.Fatalf("Rewind: %q, %v; want %q", names(es), err, want)
	}

	v = &fakeVolume{names: all, pos: 3, queried: true} // a handle listed before, up to "a"
	var plain Lister
	es, err = plain.queryDir(nil, &dirQuery{}, v.query)
	if !errors.Is(err, errMoreData) {
		t.Errorf("from a handle read before: %q, %v; want ERROR_MORE_DATA", names(es), err)
	}
	if slices.Contains(names(es), "a") {
		t.Errorf("entries before the handle's position were listed again: %q", names(es))
	}
}

// TestQueryDirChangeTime: a record's change time of 0 (a file system that
// keeps none, FAT) leaves ChangeTimeNanos 0, not 1601's; any other is
// converted as the write time is.
func TestQueryDirChangeTime(t *testing.T) {
	const write, change = 133_000_000_000_000_000, 133_000_000_000_000_007 // FILETIMEs in 2022
	recs := []dirInfoRecord{
		{name: "none", size: 1, write: write},
		{name: "kept", size: 2, write: write, change: change},
	}
	served := false
	q := func(class uint32, buf []byte) error {
		if served {
			return errNoMoreFiles
		}
		served = true
		copy(buf, chain(class == classExtd || class == classExtdRestart, recs...))
		return nil
	}
	var l Lister
	es, err := l.queryDir(nil, &dirQuery{}, q)
	if err != nil || len(es) != 2 {
		t.Fatalf("%q, %v", names(es), err)
	}
	want := map[string]int64{"none": 0, "kept": filetimeNanos(change)}
	for _, e := range es {
		if e.ChangeTimeNanos != want[e.Name] || e.ModTimeNanos != filetimeNanos(write) {
			t.Errorf("%s: change %d, write %d; want %d, %d", e.Name, e.ChangeTimeNanos, e.ModTimeNanos, want[e.Name], filetimeNanos(write))
		}
	}
	if want["kept"] == 0 {
		t.Error("the change time converts to 0")
	}
}
