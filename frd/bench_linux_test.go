package frd_test

import (
	"testing"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

// platformImpls adds the listing a walker makes on Linux, the same system
// calls as the C floor (testdata/floor.c): open, getdents64, one statx per
// regular file, close.
var platformImpls = []benchImpl{
	{"frd.Handle", func(b *testing.B, dir string) { listHandle(b, dir, false) }},
	{"frd.HandleFast", func(b *testing.B, dir string) { listHandle(b, dir, true) }}, // Lister.FastStats
}

func listHandle(b *testing.B, dir string, fast bool) {
	l := frd.Lister{FastStats: fast}
	var entries []frd.Entry
	for b.Loop() {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			b.Fatal(err)
		}
		entries, err = l.AppendHandle(entries[:0], uintptr(fd), dir)
		unix.Close(fd)
		if err != nil {
			b.Fatal(err)
		}
		sumEntries(entries)
	}
}

// platformNameImpls adds the names-only listing a walker makes (walk's
// Names and Reuse): the C floor's system calls, open, getdents64, close,
// and the names' storage reused.
var platformNameImpls = []benchImpl{
	{"frd.NamesHandle", func(b *testing.B, dir string) {
		l := frd.Lister{Names: true, ReuseNames: true}
		var entries []frd.Entry
		for b.Loop() {
			fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				b.Fatal(err)
			}
			entries, err = l.AppendHandle(entries[:0], uintptr(fd), dir)
			unix.Close(fd)
			if err != nil {
				b.Fatal(err)
			}
			sink += int64(len(entries))
		}
	}},
}
