package frd_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pbednarcik/flexreaddir/frd"
)

// The benchmarks list directories of regular files, made once and kept under
// -frd.benchdir so that repeated runs measure a warm cache, not the making.
var benchDir = flag.String("frd.benchdir", filepath.Join(os.TempDir(), "frd-bench"),
	"where the benchmark directories are made and kept")

var benchSizes = []int{10, 1000, 10000, 100000}

var benchMu sync.Mutex

// benchTree returns a directory of n regular files of a few bytes each,
// making it first if it is not there or not complete.
func benchTree(b *testing.B, n int) string {
	benchMu.Lock()
	defer benchMu.Unlock()
	dir := filepath.Join(*benchDir, fmt.Sprintf("files-%d", n))
	if des, err := os.ReadDir(dir); err == nil && len(des) == n {
		return dir
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 100)
	for i := range n {
		name := filepath.Join(dir, fmt.Sprintf("file-%06d.dat", i))
		if err := os.WriteFile(name, buf[:i%100], 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// sink keeps the results alive so nothing is optimised away.
var sink int64

type benchImpl struct {
	name string
	fn   func(b *testing.B, dir string)
}

// fullImpls read every name and type, and the size and modification time of
// every regular file.
var fullImpls = []benchImpl{
	{"os.ReadDir+Info", func(b *testing.B, dir string) {
		for b.Loop() {
			des, err := os.ReadDir(dir)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range des {
				if d.Type().IsRegular() {
					fi, err := d.Info()
					if err != nil {
						b.Fatal(err)
					}
					sink += fi.Size() + fi.ModTime().UnixNano()
				}
			}
		}
	}},
	{"os.File.Readdir", func(b *testing.B, dir string) {
		for b.Loop() {
			f, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			fis, err := f.Readdir(-1)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			for _, fi := range fis {
				if fi.Mode().IsRegular() {
					sink += fi.Size() + fi.ModTime().UnixNano()
				}
			}
		}
	}},
	{"frd.ReadDir", func(b *testing.B, dir string) {
		for b.Loop() {
			entries, err := frd.ReadDir(dir)
			if err != nil {
				b.Fatal(err)
			}
			sumEntries(entries)
		}
	}},
	{"frd.AppendDir", func(b *testing.B, dir string) {
		for b.Loop() {
			f, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			entries, err := frd.AppendDir(nil, f)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			sumEntries(entries)
		}
	}},
	{"frd.Lister", func(b *testing.B, dir string) {
		var l frd.Lister
		var entries []frd.Entry
		for b.Loop() {
			f, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			entries, err = l.AppendDir(entries[:0], f)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			sumEntries(entries)
		}
	}},
	{"frd.Lister+Rewind", func(b *testing.B, dir string) {
		// The listing alone: a kept Lister and slice on a kept descriptor.
		f, err := os.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		l := frd.Lister{Rewind: true}
		var entries []frd.Entry
		for b.Loop() {
			entries, err = l.AppendDir(entries[:0], f)
			if err != nil {
				b.Fatal(err)
			}
			sumEntries(entries)
		}
	}},
}

// nameImpls read names and types only.
var nameImpls = []benchImpl{
	{"os.File.ReadDir", func(b *testing.B, dir string) {
		for b.Loop() {
			f, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			des, err := f.ReadDir(-1)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			sink += int64(len(des))
		}
	}},
	{"frd.Names", func(b *testing.B, dir string) {
		l := frd.Lister{Names: true}
		var entries []frd.Entry
		for b.Loop() {
			f, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			entries, err = l.AppendDir(entries[:0], f)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			sink += int64(len(entries))
		}
	}},
}

func sumEntries(entries []frd.Entry) {
	for _, e := range entries {
		sink += e.Size + e.ModTimeNanos
	}
}

func runImpls(b *testing.B, impls []benchImpl) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			dir := benchTree(b, n) // only for the sizes -bench selects
			for _, impl := range impls {
				b.Run("impl="+impl.name, func(b *testing.B) {
					b.ReportAllocs()
					impl.fn(b, dir)
				})
			}
		})
	}
}

// BenchmarkList compares full listings: names, types, and the size and
// modification time of every regular file.
func BenchmarkList(b *testing.B) { runImpls(b, append(fullImpls, platformImpls...)) }

// BenchmarkNames compares names-and-types listings.
func BenchmarkNames(b *testing.B) { runImpls(b, append(nameImpls, platformNameImpls...)) }
