module github.com/pbednarcik/flexreaddir/scripts/modproxy

go 1.26.0

// A tool of the release scripts, a module of its own (and outside go.work)
// so that golang.org/x/mod is no dependency of the library or the commands.

require golang.org/x/mod v0.43.0
