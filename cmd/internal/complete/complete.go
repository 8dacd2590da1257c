// Package complete writes bash, zsh and fish completion scripts for a
// command from its option table (a pflag or flag FlagSet), so that the
// scripts know every option the parser knows, and no other.
package complete

import "fmt"

// Arg is whether an option takes a value, and how.
type Arg int

const (
	NoArg       Arg = iota // a switch
	RequiredArg            // --name=VALUE or --name VALUE (-n VALUE, -nVALUE)
	OptionalArg            // --name or --name=VALUE only
)

// Flag is one option as a script completes it.
type Flag struct {
	Long, Short string   // without dashes; either may be empty
	Arg         Arg      // whether it takes a value
	Repeats     bool     // may be given more than once, each adding
	Choices     []string // the value's words, when they are fixed
	Files       bool     // the value is a file name
	Desc        string   // one line, or ""
}

// Operands is what a command's arguments other than options are.
type Operands int

const (
	FileOperands Operands = iota
	DirOperands
	NoOperands
)

// Command is a program or one of its subcommands: its options and what
// its operands are.
type Command struct {
	Name     string // the subcommand's name; the program's for the program
	Desc     string // a subcommand's one line, or ""
	Flags    []Flag
	Operands Operands
}

// Program is a command, and its subcommands if it has any: then its first
// argument names one, and its own flags (--help, --version) stand alone.
type Program struct {
	Command
	Subcommands []Command
}

// Shells are the shells Script writes for.
var Shells = []string{"bash", "zsh", "fish"}

// Script is p's completion script for shell, one of Shells.
func Script(p *Program, shell string) (string, error) {
	switch shell {
	case "bash":
		return Bash(p), nil
	case "zsh":
		return Zsh(p), nil
	case "fish":
		return Fish(p), nil
	}
	return "", fmt.Errorf("no completion for %q: the shells are bash, zsh and fish", shell)
}
