package complete

import (
	"fmt"
	"strings"
)

// Fish is p's completion script for fish: one complete line per option,
// per subcommand and per kind of operand.
func Fish(p *Program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s, made by `%s --completion=fish` from its options.\n\n", p.Name, p.Name)
	if len(p.Subcommands) == 0 {
		fishCommand(&b, p.Name, "", &p.Command)
		return b.String()
	}
	const top = "__fish_use_subcommand"
	fmt.Fprintf(&b, "complete -c %s -n %s -f\n", p.Name, top)
	for _, f := range p.Flags {
		fmt.Fprintf(&b, "complete -c %s -n %s%s\n", p.Name, top, fishFlag(f))
	}
	for _, c := range p.Subcommands {
		fmt.Fprintf(&b, "complete -c %s -n %s -a %s", p.Name, top, fishQuote(c.Name))
		if c.Desc != "" {
			fmt.Fprintf(&b, " -d %s", fishQuote(c.Desc))
		}
		b.WriteString("\n")
	}
	for i := range p.Subcommands {
		c := &p.Subcommands[i]
		b.WriteString("\n")
		fishCommand(&b, p.Name, fishQuote("__fish_seen_subcommand_from "+c.Name), c)
	}
	return b.String()
}

// fishCommand writes c's lines, each under the condition cond if not "".
func fishCommand(b *strings.Builder, prog, cond string, c *Command) {
	head := "complete -c " + prog
	if cond != "" {
		head += " -n " + cond
	}
	switch c.Operands {
	case DirOperands:
		fmt.Fprintf(b, "%s -f -a '(__fish_complete_directories)'\n", head)
	case NoOperands:
		fmt.Fprintf(b, "%s -f\n", head)
	}
	for _, f := range c.Flags {
		b.WriteString(head + fishFlag(f) + "\n")
	}
}

// fishFlag is f's part of a complete line: its names, whether it takes a
// value and which, and its description.
func fishFlag(f Flag) string {
	var s string
	if f.Short != "" {
		s += " -s " + fishQuote(f.Short)
	}
	if f.Long != "" {
		s += " -l " + fishQuote(f.Long)
	}
	switch {
	case f.Arg == NoArg:
	case f.Arg == OptionalArg && len(f.Choices) > 0:
		s += " -f -a " + fishQuote(strings.Join(f.Choices, " ")) // after --name= only
	case len(f.Choices) > 0:
		s += " -x -a " + fishQuote(strings.Join(f.Choices, " "))
	case f.Files:
		s += " -r -F"
	case f.Arg == RequiredArg:
		s += " -x"
	}
	if f.Desc != "" {
		s += " -d " + fishQuote(f.Desc)
	}
	return s
}
