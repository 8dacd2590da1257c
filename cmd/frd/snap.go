package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/pbednarcik/flexreaddir/snapshot"
)

// patterns is a repeatable --exclude.
type patterns []string

func (p *patterns) String() string     { return fmt.Sprint(*p) }
func (p *patterns) Set(s string) error { *p = append(*p, s); return nil }

// parseMixed parses flags that may come after the operands, as GNU tools
// take them ("frd snap DIR -o FILE"), and returns the operands; "--" ends
// the flags.
func parseMixed(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// signalContext is cancelled by SIGINT or SIGTERM, so that a snapshot's
// temporary file is removed.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// runSnap writes a snapshot of DIR to FILE: exit 0, 1 when some entries
// could not be read (the snapshot is written and says so), 2 on trouble.
func runSnap(args []string, stdout, stderr io.Writer) int {
	fs, o := snapFlags()
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	out, hash, hashAll, oneFS, excl := o.out, o.hash, o.hashAll, o.oneFS, o.excl
	operands, err := parseMixed(fs, args)
	if err != nil {
		return 2
	}
	if len(operands) != 1 || *out == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	opts := &snapshot.Options{Exclude: *excl, OneFileSystem: *oneFS,
		OnError: func(err error) error { warn(stderr, "frd", err); return nil }}
	switch {
	case *hashAll:
		opts.Hash = snapshot.HashAll
	case *hash:
		opts.Hash = snapshot.HashRacy
	}
	// The snapshot names its tree absolutely, for a diff run elsewhere.
	dir, err := filepath.Abs(operands[0])
	if err != nil {
		warn(stderr, "frd", err)
		return 2
	}
	ctx, stop := signalContext()
	defer stop()
	switch err := snapshot.WriteFile(ctx, dir, *out, opts); {
	case err == nil:
		return 0
	case errors.Is(err, snapshot.ErrIncomplete):
		return 1 // each error was printed as it came
	default:
		warn(stderr, "frd", err)
		return 2
	}
}

type snapOptions struct {
	out                  *string
	hash, hashAll, oneFS *bool
	excl                 *patterns
}

// snapFlags defines frd snap's options, for the command and its completion.
func snapFlags() (*flag.FlagSet, *snapOptions) {
	fs := flag.NewFlagSet("frd snap", flag.ContinueOnError)
	o := &snapOptions{
		out:     fs.String("o", "", "the snapshot's file"),
		hash:    fs.Bool("hash", false, "hash the files whose times cannot be trusted"),
		hashAll: fs.Bool("hash-all", false, "hash every file"),
		oneFS:   fs.Bool("x", false, "stay on the directory's file system"),
		excl:    new(patterns),
	}
	fs.Var(o.excl, "exclude", "leave out names matching a pattern")
	return fs, o
}
