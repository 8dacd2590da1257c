package main

import (
	"strings"
	"testing"
)

func TestRequireLibrary(t *testing.T) {
	mod := `module github.com/pbednarcik/flexreaddir/cmd

go 1.26.0

replace github.com/pbednarcik/flexreaddir => ../

require (
	github.com/pbednarcik/flexreaddir v0.0.0
	github.com/spf13/pflag v1.1.0
)
`
	// The go command's order, not bytes' (v0.9.0 before v0.10.0), is kept.
	sum := "github.com/gdamore/tcell/v2 v2.13.10 h1:tcell=\n" +
		"github.com/pbednarcik/flexreaddir v0.0.0 h1:old=\n" +
		"github.com/spf13/pflag v1.1.0 h1:pflag=\n" +
		"golang.org/x/sys v0.9.0 h1:nine=\n" +
		"golang.org/x/sys v0.10.0 h1:ten=\n"
	newMod, newSum, err := requireLibrary([]byte(mod), []byte(sum), "v1.2.3", []string{
		"github.com/pbednarcik/flexreaddir v1.2.3 h1:zip=",
		"github.com/pbednarcik/flexreaddir v1.2.3/go.mod h1:mod=",
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := string(newMod); strings.Contains(m, "replace") || !strings.Contains(m, "github.com/pbednarcik/flexreaddir v1.2.3\n") {
		t.Errorf("go.mod:\n%s", m)
	}
	want := "github.com/gdamore/tcell/v2 v2.13.10 h1:tcell=\n" +
		"github.com/pbednarcik/flexreaddir v1.2.3 h1:zip=\n" +
		"github.com/pbednarcik/flexreaddir v1.2.3/go.mod h1:mod=\n" +
		"github.com/spf13/pflag v1.1.0 h1:pflag=\n" +
		"golang.org/x/sys v0.9.0 h1:nine=\n" +
		"golang.org/x/sys v0.10.0 h1:ten=\n"
	if string(newSum) != want {
		t.Errorf("go.sum:\n%s\nwant:\n%s", newSum, want)
	}
}
