package version

import (
	"strings"
	"testing"
)

func TestTextStamped(t *testing.T) {
	defer func(n, c string) { number, commit = n, c }(number, commit)
	number, commit = "v1.2.3", "0123abc"
	got := Text("fdu", "about")
	want := "fdu (flexreaddir) 1.2.3\ncommit 0123abc\nabout\n"
	if got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

// A test binary has no module version: the number is devel.
func TestNumberUnstamped(t *testing.T) {
	defer func(n string) { number = n }(number)
	number = ""
	if n := Number(); n != "devel" {
		t.Errorf("Number = %q, want devel", n)
	}
	if first, _, _ := strings.Cut(Text("frd", "x"), "\n"); first != "frd (flexreaddir) devel" {
		t.Errorf("first line %q", first)
	}
}
