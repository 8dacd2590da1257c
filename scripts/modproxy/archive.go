package main

import (
	"archive/zip"
	"bytes"
	"os/exec"
	"strings"

	modzip "golang.org/x/mod/zip"
)

// archiveFiles is the files of commit rev under subdir, from git archive,
// as the go command lists a module's files from a git repository.
func archiveFiles(repo, rev, subdir string) ([]modzip.File, error) {
	args := []string{"-c", "core.autocrlf=input", "-c", "core.eol=lf", "archive", "--format=zip", rev}
	if subdir != "" {
		args = append(args, subdir)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		return nil, gitError("archive", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		return nil, err
	}
	var files []modzip.File
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		files = append(files, archiveFile{path: relTo(subdir, f.Name), f: f})
	}
	return files, nil
}
