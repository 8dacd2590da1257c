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
	fs := flag.NewFlagSet("frd snap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	out := fs.String("o", "", "")
	hash := fs.Bool("hash", false, "")
	hashAll := fs.Bool("hash-all", false, "")
	oneFS := fs.Bool("x", false, "")
	var excl patterns
	fs.Var(&excl, "exclude", "")
	operands, err := parseMixed(fs, args)
	if err != nil {
		return 2
	}
	if len(operands) != 1 || *out == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	opts := &snapshot.Options{Exclude: excl, OneFileSystem: *oneFS,
		OnError: func(err error) error { fmt.Fprintf(stderr, "frd: %v\n", err); return nil }}
	switch {
	case *hashAll:
		opts.Hash = snapshot.HashAll
	case *hash:
		opts.Hash = snapshot.HashRacy
	}
	// The snapshot names its tree absolutely, for a diff run elsewhere.
	dir, err := filepath.Abs(operands[0])
	if err != nil {
		fmt.Fprintf(stderr, "frd: %v\n", err)
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
		fmt.Fprintf(stderr, "frd: %v\n", err)
		return 2
	}
}
