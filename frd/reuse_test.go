//go:build linux || darwin || windows

package frd

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestGrowKeepsWhatFits: grow hands back the same array while the entries
// asked for fit, exactly or with room to spare, and a new one, twice as
// large, from one entry more.
func TestGrowKeepsWhatFits(t *testing.T) {
	for _, room := range []int{0, 1, 2, 5} {
		for _, n := range []int{room - 1, room, room + 1} {
			if n < 0 {
				continue
			}
			dst := make([]Entry, 3, 3+room)
			got := grow(dst, n)
			same := unsafe.SliceData(got) == unsafe.SliceData(dst)
			if same != (n <= room) || len(got) != 3 || cap(got)-len(got) < n {
				t.Errorf("room %d, %d more: same array %v, len %d cap %d", room, n, same, len(got), cap(got))
			}
			if !same && cap(got) < 2*cap(dst) {
				t.Errorf("room %d, %d more: grown to %d from %d, want at least twice", room, n, cap(got), cap(dst))
			}
		}
	}
}

// TestNameSpaceFillsItsStorage: under ReuseNames the parts handed out
// follow each other in one array up to its last byte; the part that does
// not fit takes a new array, and a call's reset starts the old one again.
func TestNameSpaceFillsItsStorage(t *testing.T) {
	l := &Lister{ReuseNames: true}
	a := l.nameSpace(100)
	base := unsafe.Pointer(unsafe.SliceData(a[:1]))
	if cap(l.names) != 4096 || len(a) != 0 || cap(a) != 100 {
		t.Fatalf("first part: storage cap %d, part len %d cap %d", cap(l.names), len(a), cap(a))
	}
	b := l.nameSpace(4096 - 100) // exactly the room left
	if unsafe.Pointer(unsafe.SliceData(b[:1])) != unsafe.Add(base, 100) {
		t.Errorf("a part that fits exactly took a new array")
	}
	c := l.nameSpace(1) // one byte more than the room
	if p := unsafe.Pointer(unsafe.SliceData(c[:1])); uintptr(p) >= uintptr(base) && uintptr(p) < uintptr(base)+4096 {
		t.Errorf("a part past the storage's end was handed out inside it")
	}
	if cap(l.names) != 8192 {
		t.Errorf("new storage cap %d, want twice the old", cap(l.names))
	}
	l.resetNames()
	if d := l.nameSpace(10); unsafe.SliceData(d[:1]) != unsafe.SliceData(l.names) {
		t.Errorf("after a reset the next part is not the storage's start")
	}
	runtime.KeepAlive(a)
	if d := (&Lister{}).nameSpace(10); cap(d) != 10 {
		t.Errorf("without ReuseNames: cap %d, want 10", cap(d))
	}
}

// TestQueryDirKeepsBuffer: a Lister's query buffer of the usual size is
// made once and kept for the next directory.
func TestQueryDirKeepsBuffer(t *testing.T) {
	var l Lister
	q := &dirQuery{}
	if _, err := l.queryDir(nil, q, (&fakeVolume{names: []string{"a"}}).query); err != nil {
		t.Fatal(err)
	}
	buf := unsafe.SliceData(q.buf)
	if len(q.buf) != windowsBufSize {
		t.Fatalf("buffer of %d bytes, want %d", len(q.buf), windowsBufSize)
	}
	if _, err := l.queryDir(nil, q, (&fakeVolume{names: []string{"b"}}).query); err != nil {
		t.Fatal(err)
	}
	if unsafe.SliceData(q.buf) != buf {
		t.Error("the second directory's query made a new buffer")
	}
}
