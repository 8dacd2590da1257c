package main

import (
	"strings"
	"testing"
)

// TestProgressOnlyOnStderr: with the progress line forced on, stdout has
// the report alone.
func TestProgressOnlyOnStderr(t *testing.T) {
	root := viewTree(t)
	out, _, code := runView(t, "--progress=always", "-s", "-b", root)
	if code != 0 || strings.Contains(out, "scanning") || !strings.HasSuffix(out, "\t"+root+"\n") {
		t.Errorf("stdout %q", out)
	}
}
