package main

import (
	"regexp"
	"strings"
)

// helpOption is one option as --help lists it, with its description's
// lines joined.
type helpOption struct {
	short, long, desc string
}

// helpLine is an option's first line in --help: "  -a, --all  text",
// "      --si  text", "  -H  text", "      --time=WORD  text".
var helpLine = regexp.MustCompile(`^ {2,6}(?:-([^-\s])(?:, )?)?(?:--([a-z0-9-]+)(?:=[A-Z]+)?)?\s+(\S.*)$`)

// helpOptions is the options that text (usageText) lists, in its order.
// A description goes on in the lines indented past the option column.
func helpOptions(text string) []helpOption {
	var opts []helpOption
	for _, line := range strings.Split(text, "\n") {
		m := helpLine.FindStringSubmatch(line)
		switch {
		case m != nil && (m[1] != "" || m[2] != ""):
			opts = append(opts, helpOption{short: m[1], long: m[2], desc: m[3]})
		case len(opts) > 0 && strings.HasPrefix(line, strings.Repeat(" ", 10)):
			opts[len(opts)-1].desc += " " + strings.TrimSpace(line)
		default:
			if len(opts) > 0 {
				opts[len(opts)-1].desc = strings.Join(strings.Fields(opts[len(opts)-1].desc), " ")
			}
		}
	}
	return opts
}
