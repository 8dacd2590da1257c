package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/pbednarcik/flexreaddir/tree"
)

func runClone(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("frd clone", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	method := fs.String("method", "auto", "")
	specials := fs.String("specials", "skip", "")
	workers := fs.Int("j", 0, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	opts := &tree.Options{Method: tree.Method(*method), Workers: *workers}
	switch *specials {
	case "skip":
		opts.Specials = tree.SkipSpecials
	case "copy":
		opts.Specials = tree.ReproduceSpecials
	case "fail":
		opts.Specials = tree.FailOnSpecials
	default:
		fmt.Fprintf(stderr, "frd clone: --specials must be skip, copy or fail, not %q\n", *specials)
		return 2
	}
	res, err := tree.Clone(fs.Arg(0), fs.Arg(1), opts)
	if err != nil {
		fmt.Fprintf(stderr, "frd clone: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, res)
	return 0
}

func runChmod(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("frd chmod", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	files := fs.Bool("files-readonly", false, "")
	dirs := fs.Bool("dirs-writable", false, "")
	workers := fs.Int("j", 0, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *files == *dirs {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var n int
	var err error
	what := "files made read-only"
	if *files {
		n, err = tree.FilesReadOnly(fs.Arg(0), *workers)
	} else {
		n, err = tree.DirsWritable(fs.Arg(0), *workers)
		what = "directories made writable"
	}
	fmt.Fprintf(stdout, "%d %s\n", n, what)
	if err != nil {
		fmt.Fprintf(stderr, "frd chmod: %v\n", err)
		return 1
	}
	return 0
}
