module github.com/pbednarcik/flexreaddir/cmd

go 1.26.0

// The commands' own module, so that a program importing the library
// (frd, walk, tree) gets golang.org/x/sys and nothing else in its
// module graph. It requires a released library, with no replace, so
// that `go install .../cmd/fdu@VERSION` works; go.work at the root joins
// the two for development, and scripts/release.sh moves the requirement.

require (
	github.com/gdamore/tcell/v2 v2.13.10
	github.com/go-git/go-git/v5 v5.19.3
	github.com/hanwen/go-fuse/v2 v2.12.1
	github.com/pbednarcik/flexreaddir v0.1.0
	github.com/rivo/uniseg v0.4.7
	github.com/spf13/pflag v1.1.0
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)

require (
	github.com/gdamore/encoding v1.0.1 // indirect
	github.com/go-git/gcfg v1.5.1-0.20230307220236-3a3c6141e376 // indirect
	github.com/go-git/go-billy/v5 v5.9.2 // indirect
	github.com/jbenet/go-context v0.0.0-20150711004518-d14ea06fba99 // indirect
	github.com/lucasb-eyer/go-colorful v1.3.0 // indirect
	golang.org/x/net v0.57.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	gopkg.in/warnings.v0 v0.1.2 // indirect
)
