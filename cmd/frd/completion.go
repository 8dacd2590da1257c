package main

import (
	"flag"
	"io"

	"github.com/pbednarcik/flexreaddir/cmd/internal/complete"
	"github.com/pbednarcik/flexreaddir/tree"
)

// completion writes frd's completion script for shell
// (frd --completion=bash|zsh|fish).
func completion(shell string, stdout, stderr io.Writer) int {
	s, err := complete.Script(completionProgram(), shell)
	if err != nil {
		warn(stderr, "frd", err)
		return 2
	}
	io.WriteString(stdout, s)
	return 0
}

// completionProgram is frd's subcommands with the options each parses.
func completionProgram() *complete.Program {
	clone := flagsOf(cloneFlags)
	complete.WithChoices(clone, "method", string(tree.Auto), string(tree.Reflink), string(tree.Hardlink), string(tree.Copy))
	complete.WithChoices(clone, "specials", "skip", "copy", "fail")
	return &complete.Program{
		Command: complete.Command{Name: "frd", Operands: complete.NoOperands, Flags: []complete.Flag{
			{Long: "help", Desc: "show the usage"},
			{Long: "version", Desc: "show the version"},
		}},
		Subcommands: []complete.Command{
			{Name: "ls", Desc: "list directories: type, size, time and file id", Flags: flagsOf(lsFlags), Operands: complete.DirOperands},
			{Name: "clone", Desc: "make a copy of a tree by reflinks, hard links or copies", Flags: clone, Operands: complete.FileOperands},
			{Name: "chmod", Desc: "seal a tree's files or open its directories", Flags: flagsOf(chmodFlags), Operands: complete.DirOperands},
			{Name: "find", Desc: "print every path under directories", Flags: flagsOf(findFlags), Operands: complete.DirOperands},
			{Name: "snap", Desc: "write a snapshot of a tree", Flags: flagsOf(snapFlags), Operands: complete.DirOperands},
			{Name: "diff", Desc: "what changed in a tree since its snapshot", Flags: flagsOf(diffFlags), Operands: complete.FileOperands},
		},
	}
}

// flagsOf is the options that a subcommand's flag function defines.
func flagsOf[T any](define func() (*flag.FlagSet, T)) []complete.Flag {
	fs, _ := define()
	return complete.FromFlag(fs)
}
