package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// usageOption is an option as the usage writes it: --name or -x, after a
// space, a bracket or a bar.
var usageOption = regexp.MustCompile(`(?:^|[\s\[|])(--?[a-z0-9][a-z0-9-]*)`)

// usageOptions is the options in the usage's synopsis (its first
// paragraph) and in its lists of options (lines that start "  -"), not
// those its prose quotes (cp -a).
func usageOptions() map[string]bool {
	synopsis, rest, _ := strings.Cut(usage, "\n\n")
	text := synopsis
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "  -") {
			text += "\n" + line
		}
	}
	return optionsIn(usageOption, text)
}

// manOption is an option as the man page's source writes it: in bold.
var manOption = regexp.MustCompile(`\*\*(--?[A-Za-z0-9][A-Za-z0-9-]*)`)

func optionsIn(re *regexp.Regexp, text string) map[string]bool {
	names := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		names[m[1]] = true
	}
	return names
}

// TestManPageHasEveryOption: every option the usage names is in frd.1,
// and every option a subcommand parses is in both.
func TestManPageHasEveryOption(t *testing.T) {
	src, err := os.ReadFile("frd.1.md")
	if err != nil {
		t.Fatal(err)
	}
	man := optionsIn(manOption, string(src))
	inUsage := usageOptions()
	if len(inUsage) < 15 {
		t.Fatalf("only %d options read from the usage: %v", len(inUsage), inUsage)
	}
	for name := range inUsage {
		if !man[name] {
			t.Errorf("%s is in the usage, not in frd.1.md", name)
		}
	}
	p := completionProgram()
	for _, c := range append(p.Subcommands, p.Command) {
		for _, f := range c.Flags {
			name := "--" + f.Long
			if f.Long == "" {
				name = "-" + f.Short
			}
			if !inUsage[name] || !man[name] {
				t.Errorf("frd %s %s: in the usage %v, in frd.1.md %v", c.Name, name, inUsage[name], man[name])
			}
		}
	}
}
