package complete

import (
	"fmt"
	"strings"
)

// Zsh is p's completion script for zsh, for its fpath (as _NAME) or to
// source: _arguments specs, one per option.
func Zsh(p *Program) string {
	fn := "_" + ident(p.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "#compdef %s\n# zsh completion for %s, made by `%s --completion=zsh` from its options.\n\n", p.Name, p.Name, p.Name)
	fmt.Fprintf(&b, "%s() {\n", fn)
	if len(p.Subcommands) == 0 {
		b.WriteString(zshArguments(&p.Command, "\t"))
	} else {
		zshSubcommands(&b, p)
	}
	// Autoloaded from fpath, the file is the function's body and the
	// function is then called; sourced, it registers the function.
	fmt.Fprintf(&b, "}\n\nif [ \"$funcstack[1]\" = %q ]; then\n\t%s \"$@\"\nelse\n\tcompdef %s %s\nfi\n", fn, fn, fn, p.Name)
	return b.String()
}

// zshSubcommands writes the body that completes a subcommand's name, then
// its own options.
func zshSubcommands(b *strings.Builder, p *Program) {
	b.WriteString("\tlocal curcontext=$curcontext state line\n\ttypeset -A opt_args\n\t_arguments -C : \\\n")
	for _, f := range p.Flags {
		b.WriteString("\t\t" + zshSpec(f, "(- *)") + " \\\n") // each alone
	}
	b.WriteString("\t\t'1: :->command' \\\n\t\t'*:: :->args' && return\n")
	b.WriteString("\tcase $state in\n\tcommand)\n\t\tlocal -a commands=(\n")
	for _, c := range p.Subcommands {
		fmt.Fprintf(b, "\t\t\t%s\n", shQuote(zshEscape(c.Name)+":"+c.Desc))
	}
	b.WriteString("\t\t)\n\t\t_describe command commands\n\t\t;;\n\targs)\n\t\tcase $line[1] in\n")
	for i := range p.Subcommands {
		c := &p.Subcommands[i]
		fmt.Fprintf(b, "\t\t%s)\n%s\t\t\t;;\n", shQuote(c.Name), zshArguments(c, "\t\t\t"))
	}
	b.WriteString("\t\tesac\n\t\t;;\n\tesac\n")
}

// zshArguments is the _arguments call for c's options and operands.
func zshArguments(c *Command, indent string) string {
	specs := []string{"_arguments -s -S :"}
	for _, f := range c.Flags {
		specs = append(specs, "\t"+zshSpec(f, ""))
	}
	switch c.Operands {
	case FileOperands:
		specs = append(specs, "\t'*:file:_files'")
	case DirOperands:
		specs = append(specs, "\t'*:directory:_files -/'")
	}
	return indent + strings.Join(specs, " \\\n"+indent) + "\n"
}

// zshSpec is f as an _arguments spec: '(-a --all)'{-a,--all}'[desc]' for
// an option with both names, with its value's action after a colon.
// excl, if not "", is the options and operands f excludes.
func zshSpec(f Flag, excl string) string {
	desc := "[" + zshEscape(f.Desc) + "]"
	if f.Desc == "" {
		desc = ""
	}
	action := zshAction(f)
	var names []string
	if f.Short != "" {
		names = append(names, "-"+f.Short+map[Arg]string{NoArg: "", RequiredArg: "+", OptionalArg: ""}[f.Arg])
	}
	if f.Long != "" {
		names = append(names, "--"+f.Long+map[Arg]string{NoArg: "", RequiredArg: "=", OptionalArg: "=-"}[f.Arg])
	}
	repeat := ""
	if f.Repeats {
		repeat = "*"
	}
	if len(names) == 1 {
		return shQuote(excl + repeat + names[0] + desc + action)
	}
	group := excl
	switch {
	case f.Repeats:
		group = "*"
	case group == "":
		group = "(-" + f.Short + " --" + f.Long + ")"
	}
	return shQuote(group) + "{" + strings.Join(names, ",") + "}" + shQuote(desc+action)
}

// zshAction is ":message:action" for an option's value, or "".
func zshAction(f Flag) string {
	switch {
	case f.Arg == NoArg:
		return ""
	case len(f.Choices) > 0:
		return ":value:(" + strings.Join(f.Choices, " ") + ")"
	case f.Files:
		return ":file:_files"
	}
	return ":value: "
}

// zshEscape escapes what _arguments reads in a description or name.
func zshEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `:`, `\:`).Replace(s)
}
