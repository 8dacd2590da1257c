package main

import (
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// requireLibrary is the commands' go.mod and go.sum with the library
// required at version, no replace of it, and sums (its go.sum lines) in
// place of any it had.
func requireLibrary(mod, sum []byte, version string, sums []string) ([]byte, []byte, error) {
	f, err := modfile.Parse("go.mod", mod, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := f.AddRequire(libPath, version); err != nil {
		return nil, nil, err
	}
	if err := f.DropReplace(libPath, ""); err != nil {
		return nil, nil, err
	}
	f.Cleanup()
	newMod, err := f.Format()
	if err != nil {
		return nil, nil, err
	}
	var lines []string
	for line := range strings.SplitSeq(string(sum), "\n") {
		if line != "" && !strings.HasPrefix(line, libPath+" ") {
			lines = append(lines, line)
		}
	}
	// In sorted place, the other lines kept in the go command's order.
	at := len(lines)
	if len(sums) > 0 {
		at = slices.IndexFunc(lines, func(l string) bool { return l > sums[0] })
		if at < 0 {
			at = len(lines)
		}
	}
	lines = slices.Insert(lines, at, sums...)
	return newMod, []byte(strings.Join(lines, "\n") + "\n"), nil
}
