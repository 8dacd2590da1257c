package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pbednarcik/flexreaddir/snapshot"
)

// runDiff compares a snapshot with the tree now, or with a later
// snapshot, printing one change a line: exit 0 when nothing changed, 1
// when something did, 2 on trouble (as diff(1)), an entry that cannot be
// read now included.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fs, o := diffFlags()
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	null, asJSON, opts, excl := o.null, o.asJSON, &o.compare, o.excl
	operands, err := parseMixed(fs, args)
	if err != nil {
		return 2
	}
	if len(operands) < 1 || len(operands) > 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	opts.Exclude = *excl
	out := bufio.NewWriterSize(stdout, 64<<10)
	p := &printer{w: out, null: *null, json: *asJSON}
	err = compare(operands, opts, p.print)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	switch {
	case err != nil:
		warn(stderr, "frd", err)
		return 2
	case p.unreadable:
		return 2
	case p.changed:
		return 1
	}
	return 0
}

// compare runs the compare the operands ask for: FILE against the tree
// it was taken of (or DIR), or FILE against FILE2.
func compare(operands []string, opts *snapshot.CompareOptions, fn func(*snapshot.Change) error) error {
	ctx, stop := signalContext()
	defer stop()
	old, err := os.Open(operands[0])
	if err != nil {
		return err
	}
	defer old.Close()
	if len(operands) == 2 {
		if fi, err := os.Stat(operands[1]); err == nil && !fi.IsDir() {
			cur, err := os.Open(operands[1])
			if err != nil {
				return err
			}
			defer cur.Close()
			return snapshot.CompareSnapshots(ctx, old, cur, opts, fn)
		}
		return snapshot.Compare(ctx, old, operands[1], opts, fn)
	}
	root, err := snapshotRoot(old)
	if err != nil {
		return err
	}
	return snapshot.Compare(ctx, old, root, opts, fn)
}

// snapshotRoot reads the directory a snapshot was taken of from its
// header, and rewinds the file.
func snapshotRoot(f *os.File) (string, error) {
	rd, err := snapshot.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.Name(), err)
	}
	_, err = f.Seek(0, io.SeekStart)
	return rd.Header().Root, err
}

// printer writes changes as lines, NUL-terminated names or JSON.
type printer struct {
	w          *bufio.Writer
	null, json bool
	changed    bool
	unreadable bool
}

func (p *printer) print(c *snapshot.Change) error {
	p.changed = true
	if c.Kind == snapshot.Unreadable {
		p.unreadable = true
	}
	switch {
	case p.json:
		b, err := json.Marshal(toJSONChange(c))
		if err != nil {
			return err
		}
		p.w.Write(append(b, '\n'))
	case p.null:
		// As git status -z: a move is "R new" and then the old path.
		p.w.WriteString(string(c.Kind) + " " + c.Path + "\x00")
		if c.Kind == snapshot.Moved {
			p.w.WriteString(c.OldPath + "\x00")
		}
	case c.Kind == snapshot.Moved:
		fmt.Fprintf(p.w, "R %s -> %s\n", quotePath(c.OldPath), quotePath(c.Path))
	default:
		fmt.Fprintf(p.w, "%c %s\n", c.Kind, quotePath(c.Path))
	}
	return nil
}

type diffOptions struct {
	null, asJSON *bool
	compare      snapshot.CompareOptions
	excl         *patterns
}

// diffFlags defines frd diff's options, for the command and its completion.
func diffFlags() (*flag.FlagSet, *diffOptions) {
	fs := flag.NewFlagSet("frd diff", flag.ContinueOnError)
	o := &diffOptions{
		null:   fs.Bool("0", false, "end each change with a NUL"),
		asJSON: fs.Bool("json", false, "one JSON object a change"),
		excl:   new(patterns),
	}
	fs.BoolVar(&o.compare.IgnoreChangeTime, "ignore-ctime", false, "compare no change times")
	fs.BoolVar(&o.compare.IgnoreFileID, "ignore-inode", false, "compare no inode numbers")
	fs.BoolVar(&o.compare.Hash, "hash", false, "hash again the files hashed in the snapshot")
	fs.Var(o.excl, "exclude", "leave out names matching a pattern")
	return fs, o
}
