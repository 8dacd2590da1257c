// Package bench compares the walker with the Go walkers people use today
// and with GNU du, on the same trees in one run. It is its own module so
// that the peers stay out of the main module's requirements.
//
//	cd bench && go test -run '^$' -bench . -benchmem -count 6 | tee walk.txt
//	benchstat -col /impl walk.txt
package bench

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charlievieth/fastwalk"
	"github.com/karrick/godirwalk"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
	"github.com/pbednarcik/flexreaddir/walk"
	"github.com/saracen/walker"
)

var benchDir = flag.String("bench.dir", filepath.Join(os.TempDir(), "frd-bench"), "where the trees are made and kept")

var treeMu sync.Mutex

// tree returns the tree of the given shape, making it the first time.
func tree(b *testing.B, s treegen.Shape) string {
	treeMu.Lock()
	defer treeMu.Unlock()
	dir := filepath.Join(*benchDir, "tree-"+s.Name)
	done := filepath.Join(*benchDir, "tree-"+s.Name+".done")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	n, err := treegen.Make(dir, s, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(done, []byte(fmt.Sprintln(n, "entries")), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

var sink atomic.Int64

type impl struct {
	name string
	fn   func(b *testing.B, root string) int64 // returns the total size of regular files
}

var impls = []impl{
	{"filepath.WalkDir+Info", func(b *testing.B, root string) int64 {
		var total int64
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				fi, err := d.Info()
				if err != nil {
					return err
				}
				total += fi.Size()
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		return total
	}},
	{"fastwalk+Info", func(b *testing.B, root string) int64 {
		var total atomic.Int64
		err := fastwalk.Walk(nil, root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				fi, err := d.Info()
				if err != nil {
					return err
				}
				total.Add(fi.Size())
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		return total.Load()
	}},
	{"godirwalk+Lstat", func(b *testing.B, root string) int64 {
		var total int64
		err := godirwalk.Walk(root, &godirwalk.Options{
			Unsorted: true,
			Callback: func(path string, de *godirwalk.Dirent) error {
				if de.IsRegular() {
					fi, err := os.Lstat(path)
					if err != nil {
						return err
					}
					total += fi.Size()
				}
				return nil
			},
		})
		if err != nil {
			b.Fatal(err)
		}
		return total
	}},
	{"saracen-walker", func(b *testing.B, root string) int64 {
		var total atomic.Int64
		err := walker.Walk(root, func(path string, fi os.FileInfo) error {
			if fi.Mode().IsRegular() {
				total.Add(fi.Size())
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		return total.Load()
	}},
}

// walkImpl is this project's walker with a given number of workers.
func walkImpl(workers int) impl {
	return impl{fmt.Sprintf("walk.Dirs-w%d", workers), func(b *testing.B, root string) int64 {
		var total atomic.Int64
		err := walk.Dirs(context.Background(), root, &walk.Options{Workers: workers}, func(d *walk.Dir) error {
			var sum int64
			for _, e := range d.Entries {
				sum += e.Size
			}
			total.Add(sum)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		return total.Load()
	}}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWalk sums the sizes of every regular file of a 100,000-entry
// source-checkout tree. Besides sec/op it reports cpu-sec/op, the process's
// user and system time per walk.
func BenchmarkWalk(b *testing.B) {
	root := tree(b, treegen.SourceCheckout)
	all := append(append([]impl(nil), impls...), walkImpl(1), walkImpl(2), walkImpl(4), walkImpl(0))
	all[len(all)-1].name = "walk.Dirs"
	var want int64
	for _, im := range all {
		b.Run("impl="+im.name, func(b *testing.B) {
			got := im.fn(b, root)
			if want == 0 {
				want = got
			} else if got != want {
				b.Fatalf("total %d, the first walker said %d", got, want)
			}
			c0 := cpuTime()
			for b.Loop() {
				sink.Add(im.fn(b, root))
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e9, "cpu-sec/op")
		})
	}
	b.Run("impl=du-s", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			cmd := exec.Command("du", "-s", root)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("du: %v: %s", err, out)
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-sec/op")
	})
}

// BenchmarkHugeDir walks one directory of n files with two workers, its
// stats split across them or not, to place walk.DefaultSplitDirSize.
func BenchmarkHugeDir(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 5000, 10000, 30000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := treegen.Huge
			s.Name = fmt.Sprintf("flat-%d", n)
			s.Files = []int{n}
			root := tree(b, s)
			var st syscall.Stat_t
			if err := syscall.Stat(root, &st); err != nil {
				b.Fatal(err)
			}
			b.Logf("n=%d: directory size %d bytes", n, st.Size)
			for _, split := range []int64{-1, 1} {
				name := map[int64]string{-1: "whole", 1: "split"}[split]
				b.Run("impl="+name, func(b *testing.B) {
					for b.Loop() {
						var total atomic.Int64
						err := walk.Dirs(context.Background(), root, &walk.Options{Workers: 2, SplitDirSize: split}, func(d *walk.Dir) error {
							for _, e := range d.Entries {
								total.Add(e.Size)
							}
							return nil
						})
						if err != nil {
							b.Fatal(err)
						}
						sink.Add(total.Load())
					}
				})
			}
		})
	}
}
