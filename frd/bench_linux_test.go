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
	{"frd.Handle", func(b *testing.B, dir string) { listHandle(b, dir, &frd.Lister{}, sumEntries) }},
	{"frd.HandleFast", func(b *testing.B, dir string) { // Lister.FastStats
		listHandle(b, dir, &frd.Lister{FastStats: true}, sumEntries)
	}},
}

// platformNameImpls adds the names-only listing a walker makes (walk's
// Names and Reuse): the C floor's system calls, open, getdents64, close,
// and the names' storage reused.
var platformNameImpls = []benchImpl{
	{"frd.NamesHandle", func(b *testing.B, dir string) {
		listHandle(b, dir, &frd.Lister{Names: true, ReuseNames: true}, func(es []frd.Entry) { sink += int64(len(es)) })
	}},
}

// listHandle lists dir with l into a kept slice, on a descriptor from
// unix.Open, as a walker lists.
func listHandle(b *testing.B, dir string, l *frd.Lister, use func([]frd.Entry)) {
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
		use(entries)
	}
}
