//go:build linux && (amd64 || arm64)

// Command synthfs mounts a synthetic tree of N entries (package synthfs)
// on a directory and serves it until it is unmounted or signalled:
//
//	synthfs [-entries N] [-max-size BYTES] [-delay D] DIR
//
// It prints the number of entries once the tree is mounted. -delay makes
// each directory's opening wait D: a tree slow on purpose.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pbednarcik/flexreaddir/cmd/internal/synthfs"
)

func main() {
	entries := flag.Uint64("entries", 1000000, "about how many entries: directories of 1,000 files, ten to a level above")
	maxSize := flag.Int("max-size", 512, "file sizes are drawn from 0 to this many bytes")
	delay := flag.Duration("delay", 0, "how long opening each directory takes")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synthfs [-entries N] [-max-size BYTES] [-delay D] DIR")
		os.Exit(2)
	}
	t := synthfs.New(synthfs.Scaled(*entries, *maxSize))
	srv, err := synthfs.Mount(synthfs.NewFS(t, *delay), flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthfs:", err)
		os.Exit(1)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-sigs
		srv.Unmount()
	}()
	fmt.Printf("synthfs: %d entries on %s\n", t.Entries(), flag.Arg(0))
	srv.Wait()
}
