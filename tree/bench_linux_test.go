package tree

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// BenchmarkClone clones the build-farm seed's two shapes, as a program
// that links the package does (in process), and as GNU cp does, a command
// per clone, side by side in one run:
//
//	go test ./tree -run '^$' -bench Clone -benchmem -count 8 | tee clone.txt
//	benchstat -col /how clone.txt
//
// Hard links on the test's own file system; reflinks on a loop-mounted XFS
// made with reflink=1 (as root, else skipped). Each clone is removed, and
// the file system synced, outside the timed part.
func BenchmarkClone(b *testing.B) {
	xfs := ""
	for _, shape := range []treegen.Shape{treegen.SeedSmall, treegen.SeedLarge} {
		for _, method := range []Method{Hardlink, Reflink} {
			base := b.TempDir()
			if method == Reflink {
				if xfs == "" {
					xfs = testfs.LoopMount(b, "xfs", "-m", "reflink=1")
				}
				base = xfs
			}
			src := filepath.Join(base, shape.Name)
			if _, err := os.Stat(src); err != nil {
				must(b, os.Mkdir(src, 0o755))
				s := shape
				if method == Hardlink {
					s.MaxSize = 1 // a hard link never reads the data
				} else {
					s.MaxSize /= 4 // the loop image holds 320 MiB
				}
				_, err := treegen.Make(src, s, 1)
				must(b, err)
			}
			dst := src + ".clone"
			cp := []string{"-al", src, dst}
			if method == Reflink {
				cp = []string{"-a", "--reflink=always", src, dst}
			}
			run := map[string]func() error{
				"Clone": func() error { _, err := Clone(src, dst, &Options{Method: method}); return err },
				"cp":    func() error { return exec.Command("cp", cp...).Run() },
			}
			for _, how := range []string{"Clone", "cp"} {
				b.Run(shape.Name+"/method="+string(method)+"/how="+how, func(b *testing.B) {
					// One clone untimed first, so that neither way is
					// timed while the tree just made is written back.
					must(b, os.RemoveAll(dst))
					must(b, run[how]())
					b.ResetTimer()
					for range b.N {
						b.StopTimer()
						must(b, os.RemoveAll(dst))
						must(b, exec.Command("sync").Run())
						b.StartTimer()
						must(b, run[how]())
					}
					b.StopTimer()
					must(b, os.RemoveAll(dst))
				})
			}
		}
	}
}
