// Command callgrind lists one directory -n times, for counting user-space
// instructions per entry with valgrind: run it with two counts and divide
// the difference of the totals by the extra listings' entries.
//
//	go build -o count ./frd/testdata/callgrind
//	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind ./count -impl frd -n 20 DIR
//
// (Callgrind cannot follow the runtime's preemption signals.)
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/pbednarcik/flexreaddir/frd"
	"golang.org/x/sys/unix"
)

var sink int64

func main() {
	impl := flag.String("impl", "frd", "frd (a kept Lister on a descriptor it opens), frd-fast (with FastStats), frd-names, frd-readdir (frd.ReadDir: open, list, sort), or os (os.ReadDir and Info)")
	n := flag.Int("n", 10, "listings")
	flag.Parse()
	dir := flag.Arg(0)
	var l frd.Lister
	l.Names = *impl == "frd-names"
	l.FastStats = *impl == "frd-fast"
	var entries []frd.Entry
	for range *n {
		switch *impl {
		case "frd", "frd-fast", "frd-names":
			fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				log.Fatal(err)
			}
			entries, err = l.AppendHandle(entries[:0], uintptr(fd), dir)
			unix.Close(fd)
			if err != nil {
				log.Fatal(err)
			}
			for _, e := range entries {
				sink += e.Size + e.ModTimeNanos
			}
		case "frd-readdir":
			es, err := frd.ReadDir(dir)
			if err != nil {
				log.Fatal(err)
			}
			for _, e := range es {
				sink += e.Size + e.ModTimeNanos
			}
		case "os":
			des, err := os.ReadDir(dir)
			if err != nil {
				log.Fatal(err)
			}
			for _, d := range des {
				if d.Type().IsRegular() {
					fi, err := d.Info()
					if err != nil {
						log.Fatal(err)
					}
					sink += fi.Size() + fi.ModTime().UnixNano()
				}
			}
		default:
			log.Fatalf("unknown -impl %q", *impl)
		}
	}
	fmt.Println(len(entries), sink != 0)
}
