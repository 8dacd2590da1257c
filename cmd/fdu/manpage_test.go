package main

import (
	"os"
	"regexp"
	"testing"
)

// manOption is an option as the man page's source writes it: in bold.
var manOption = regexp.MustCompile(`\*\*(--?[A-Za-z0-9][A-Za-z0-9-]*)`)

// manOptions is the options that the markdown source of a man page names.
func manOptions(t *testing.T, file string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range manOption.FindAllStringSubmatch(string(src), -1) {
		names[m[1]] = true
	}
	return names
}

// TestManPageHasEveryOption: every option --help lists is in fdu.1.
func TestManPageHasEveryOption(t *testing.T) {
	man := manOptions(t, "fdu.1.md")
	opts := helpOptions(usageText)
	if len(opts) < 40 {
		t.Fatalf("only %d options read from --help: %+v", len(opts), opts)
	}
	for _, o := range opts {
		if o.short != "" && !man["-"+o.short] {
			t.Errorf("-%s is in --help, not in fdu.1.md", o.short)
		}
		if o.long != "" && !man["--"+o.long] {
			t.Errorf("--%s is in --help, not in fdu.1.md", o.long)
		}
	}
}
