package complete

import (
	"fmt"
	"strings"
)

// Bash is p's completion script for bash (3.2 and later): options, with
// "=" after a long one that takes a value; an option's value (its words,
// or file names); subcommands; operands as files or directories.
func Bash(p *Program) string {
	fn := "_" + ident(p.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "# bash completion for %s, made by `%s --completion=bash` from its options.\n\n", p.Name, p.Name)
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString(`	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opt= sub= i
	COMPREPLY=()
	# bash splits --name=value at the '=' (COMP_WORDBREAKS): join them again.
	if [[ $cur == = ]]; then
		opt=$prev cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
		opt=${COMP_WORDS[COMP_CWORD-2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*} cur=${cur#*=}
	fi
`)
	if len(p.Subcommands) > 0 {
		fmt.Fprintf(&b, `	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W %s -- "$cur"))
		else
			COMPREPLY=($(compgen -W %s -- "$cur"))
		fi
		return
	fi
	sub=${COMP_WORDS[1]}
`, shQuote(optionWords(p.Flags)), shQuote(subcommandNames(p)))
	}
	fmt.Fprintf(&b, `	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			%s_operands "$sub" "$cur"
			return
		fi
	done
	if [[ -z $opt ]]; then
		case $sub:$prev in
%s		esac
	fi
	if [[ -n $opt ]]; then
		case $sub:$opt in
%s		esac
		return
	fi
	if [[ $cur == -* ]]; then
		case $sub in
%s		esac
		[[ ${#COMPREPLY[@]} == 1 && $COMPREPLY == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	%s_operands "$sub" "$cur"
}

%s_operands() {
	case $1 in
%s	esac
}

%s_files() {
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen "$1" -- "$2"))
}

complete -F %s %s
`, fn, bashSeparateValues(p), bashValues(p, fn), bashOptions(p), fn, fn, bashOperands(p, fn), fn, fn, p.Name)
	return b.String()
}

// each calls fn for p's commands in order, with their keys.
func each(p *Program, fn func(key string, c *Command)) {
	if len(p.Subcommands) == 0 {
		fn("", &p.Command)
		return
	}
	for i := range p.Subcommands {
		fn(p.Subcommands[i].Name, &p.Subcommands[i])
	}
}

// bashSeparateValues is the case arms that take the previous word as an
// option whose value is being typed: those with a required value.
func bashSeparateValues(p *Program) string {
	var b strings.Builder
	each(p, func(key string, c *Command) {
		var pats []string
		for _, f := range c.Flags {
			if f.Arg == RequiredArg {
				pats = append(pats, casePatterns(key, f)...)
			}
		}
		if len(pats) > 0 {
			fmt.Fprintf(&b, "\t\t%s) opt=$prev ;;\n", strings.Join(pats, "|"))
		}
	})
	return b.String()
}

// bashValues is the case arms that complete an option's value.
func bashValues(p *Program, fn string) string {
	var b strings.Builder
	each(p, func(key string, c *Command) {
		for _, f := range c.Flags {
			pats := strings.Join(casePatterns(key, f), "|")
			switch {
			case len(f.Choices) > 0:
				fmt.Fprintf(&b, "\t\t%s) COMPREPLY=($(compgen -W %s -- \"$cur\")) ;;\n", pats, shQuote(strings.Join(f.Choices, " ")))
			case f.Files:
				fmt.Fprintf(&b, "\t\t%s) %s_files -f \"$cur\" ;;\n", pats, fn)
			}
		}
	})
	return b.String()
}

// bashOptions is the case arms that offer each command's options.
func bashOptions(p *Program) string {
	var b strings.Builder
	each(p, func(key string, c *Command) {
		fmt.Fprintf(&b, "\t\t%s) COMPREPLY=($(compgen -W %s -- \"$cur\")) ;;\n", shQuote(key), shQuote(optionWords(c.Flags)))
	})
	return b.String()
}

// bashOperands is the case arms that complete each command's operands.
func bashOperands(p *Program, fn string) string {
	var b strings.Builder
	each(p, func(key string, c *Command) {
		switch c.Operands {
		case FileOperands:
			fmt.Fprintf(&b, "\t%s) %s_files -f \"$2\" ;;\n", shQuote(key), fn)
		case DirOperands:
			fmt.Fprintf(&b, "\t%s) %s_files -d \"$2\" ;;\n", shQuote(key), fn)
		}
	})
	return b.String()
}

// casePatterns is the patterns that match f after command key in the
// script's "$sub:$opt" words.
func casePatterns(key string, f Flag) []string {
	var pats []string
	if f.Long != "" {
		pats = append(pats, shQuote(key+":--"+f.Long))
	}
	if f.Short != "" {
		pats = append(pats, shQuote(key+":-"+f.Short))
	}
	return pats
}

// optionWords is flags as the words offered for a word starting with a
// dash: a long option that takes a value with its "=".
func optionWords(flags []Flag) string {
	var w []string
	for _, f := range flags {
		switch {
		case f.Long == "":
		case f.Arg == RequiredArg:
			w = append(w, "--"+f.Long+"=")
		case f.Arg == OptionalArg:
			w = append(w, "--"+f.Long, "--"+f.Long+"=")
		default:
			w = append(w, "--"+f.Long)
		}
		if f.Short != "" {
			w = append(w, "-"+f.Short)
		}
	}
	return strings.Join(w, " ")
}

func subcommandNames(p *Program) string {
	var names []string
	for _, c := range p.Subcommands {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}
