// Command modproxy makes this repository's two modules, the library and
// the commands (./cmd), as a module proxy serves them, without the
// network: for scripts/install-check.sh, which installs the commands from
// a directory proxy (GOPROXY=file://DIR,...), and scripts/release.sh,
// which records the library's hashes in cmd/go.sum.
//
//	modproxy serve -repo DIR -version VERSION -out PROXYDIR
//	modproxy pin -repo DIR -rev REV -version VERSION
//
// serve writes the .info, .mod and .zip of both modules at VERSION from
// the working tree (the files git tracks or would track), with the
// commands' go.mod requiring the library at VERSION and their go.sum
// holding its hashes. pin makes cmd/go.mod and cmd/go.sum in the working
// tree so, with the hashes of the library made from commit REV as the go
// command will make its zip from the tag; it prints the go.sum lines.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet("modproxy "+os.Args[1], flag.ExitOnError)
	repo := fs.String("repo", ".", "the repository's root")
	version := fs.String("version", "", "the modules' version")
	out := fs.String("out", "", "serve: the proxy directory to write")
	rev := fs.String("rev", "HEAD", "pin: the library's commit")
	fs.Parse(os.Args[2:])
	if *version == "" {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "serve":
		if *out == "" {
			usage()
		}
		err = serve(*repo, *version, *out)
	case "pin":
		err = pin(*repo, *rev, *version)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: modproxy serve -repo DIR -version VERSION -out PROXYDIR\n       modproxy pin -repo DIR -rev REV -version VERSION")
	os.Exit(2)
}
