package main

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/module"
)

// pin makes the working tree's cmd/go.mod require the library at version
// and cmd/go.sum hold its hashes, made from commit rev as the go command
// will make them from the tag: so that the commands' release, tagged after
// it, installs with `go install`.
func pin(repo, rev, version string) error {
	files, err := archiveFiles(repo, rev, "")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "modproxy")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	zipFile := filepath.Join(dir, "lib.zip")
	if err := writeZip(zipFile, module.Version{Path: libPath, Version: version}, files); err != nil {
		return err
	}
	sums, err := sumLines(libPath, version, zipFile, fileData(files, "go.mod"))
	if err != nil {
		return err
	}
	modName, sumName := filepath.Join(repo, "cmd", "go.mod"), filepath.Join(repo, "cmd", "go.sum")
	mod, err := os.ReadFile(modName)
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(sumName)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	newMod, newSum, err := requireLibrary(mod, sum, version, sums)
	if err != nil {
		return err
	}
	if err := os.WriteFile(modName, newMod, 0o644); err != nil {
		return err
	}
	for _, l := range sums {
		fmt.Println(l)
	}
	return os.WriteFile(sumName, newSum, 0o644)
}
