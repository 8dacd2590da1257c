// Package version is the commands' version and the commit they were built
// from, for --version: stamped in by the release build, read from the
// module's build information after `go install …@version`, or "devel".
package version

import (
	"runtime/debug"
	"strings"
)

// Set by the release build:
//
//	-ldflags "-X github.com/pbednarcik/flexreaddir/cmd/internal/version.number=0.1.0
//	          -X github.com/pbednarcik/flexreaddir/cmd/internal/version.commit=abc123"
var number, commit string

// Number is the version without its "v", as coreutils prints its own
// (du (GNU coreutils) 9.1): the stamped one, else the module's, else devel.
func Number() string {
	if number != "" {
		return strings.TrimPrefix(number, "v")
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "devel"
}

// Commit is the commit the program was built from, or "" when the build
// did not record it (a module zip carries no history).
func Commit() string {
	if commit != "" {
		return commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return ""
}

// Text is a command's --version text in coreutils' layout: the first
// line's last word is the version, which scripts (and GNU's
// help-version.sh) read; the program is named as it is, not as it was run.
func Text(prog, about string) string {
	s := prog + " (flexreaddir) " + Number() + "\n"
	if c := Commit(); c != "" {
		s += "commit " + c + "\n"
	}
	return s + about + "\n"
}
