package main

import (
	"io"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/internal/complete"
)

// completionShell is the shell named by --completion=SHELL when it is
// fdu's only argument: a hidden option, outside getopt's table so that no
// abbreviation of du's reaches it.
func completionShell(args []string) (string, bool) {
	if len(args) != 1 {
		return "", false
	}
	return strings.CutPrefix(args[0], "--completion=")
}

// completion writes fdu's completion script for shell.
func (c *command) completion(shell string) int {
	s, err := complete.Script(completionProgram(), shell)
	if err != nil {
		c.warn("%v", err)
		return 1
	}
	io.WriteString(c.out, s)
	return 0
}

// completionProgram is fdu's options as parse defines them, described as
// --help describes them.
func completionProgram() *complete.Program {
	flags := complete.FromPFlag(newFlags(&config{}).fl)
	desc := map[string]string{}
	for _, o := range helpOptions(usageText) {
		key := o.long
		if key == "" {
			key = o.short
		}
		if _, ok := desc[key]; !ok { // --time's first line, not --time=WORD's
			desc[key] = o.desc
		}
	}
	complete.WithDesc(flags, desc)
	complete.WithChoices(flags, "time", "atime", "access", "use", "ctime", "status")
	complete.WithChoices(flags, "time-style", "full-iso", "long-iso", "iso")
	complete.WithChoices(flags, "progress", "auto", "always", "never")
	complete.WithFiles(flags, "exclude-from", "files0-from", "output-file", "input-file", "ignore-from")
	return &complete.Program{Command: complete.Command{Name: "fdu", Flags: flags, Operands: complete.FileOperands}}
}
