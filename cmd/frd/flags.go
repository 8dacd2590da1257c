package main

import (
	"flag"
	"io"

	"github.com/pbednarcik/flexreaddir/tree"
)

// Each subcommand's options are defined by a function of their own, so
// that the completion scripts are made from the FlagSets run parses with.

type lsOptions struct{ asJSON, names *bool }

func lsFlags() (*flag.FlagSet, *lsOptions) {
	fs := flag.NewFlagSet("frd ls", flag.ContinueOnError)
	return fs, &lsOptions{
		asJSON: fs.Bool("json", false, "one JSON object per directory"),
		names:  fs.Bool("names", false, "names and types only (no stat per file)"),
	}
}

type cloneOptions struct {
	method, specials *string
	workers          *int
	tree             tree.Options
}

func cloneFlags() (*flag.FlagSet, *cloneOptions) {
	fs := flag.NewFlagSet("frd clone", flag.ContinueOnError)
	o := &cloneOptions{
		method:   fs.String("method", "auto", "how to make the copy: auto, reflink, hardlink or copy"),
		specials: fs.String("specials", "skip", "devices, FIFOs and sockets: skip, copy or fail"),
		workers:  fs.Int("j", 0, "goroutines that copy (default: the CPUs)"),
	}
	fs.BoolVar(&o.tree.NoOwner, "no-owner", false, "do not keep owners")
	fs.BoolVar(&o.tree.NoTimes, "no-times", false, "do not keep modification times")
	fs.BoolVar(&o.tree.NoXattrs, "no-xattrs", false, "do not keep extended attributes")
	fs.BoolVar(&o.tree.NoACLs, "no-acls", false, "do not keep ACLs")
	fs.BoolVar(&o.tree.NoHardLinks, "no-hard-links", false, "copy hard-linked files apart")
	return fs, o
}

type chmodOptions struct {
	files, dirs *bool
	workers     *int
}

func chmodFlags() (*flag.FlagSet, *chmodOptions) {
	fs := flag.NewFlagSet("frd chmod", flag.ContinueOnError)
	return fs, &chmodOptions{
		files:   fs.Bool("files-readonly", false, "clear the write bits of every regular file"),
		dirs:    fs.Bool("dirs-writable", false, "give the owner write permission on every directory"),
		workers: fs.Int("j", 0, "goroutines that walk (default: the CPUs)"),
	}
}

type findOptions struct {
	jobs        *int
	null, count *bool
}

func findFlags() (*flag.FlagSet, *findOptions) {
	fs := flag.NewFlagSet("frd find", flag.ContinueOnError)
	return fs, &findOptions{
		jobs:  fs.Int("j", 0, "goroutines that walk (default: the CPUs)"),
		null:  fs.Bool("0", false, "end each path with a NUL"),
		count: fs.Bool("c", false, "print only how many paths there are"),
	}
}

// parseFlags parses args with fs, which reports a bad option and the
// usage on stderr.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	fs.Usage = func() { io.WriteString(stderr, usage) }
	return fs.Parse(args)
}
