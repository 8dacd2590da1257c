package main

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	modzip "golang.org/x/mod/zip"
)

// treeFiles is the files of the working tree under subdir ("" for the
// root) that git tracks or would track (not ignored), named relative to
// subdir. A tracked file deleted from the tree is left out.
func treeFiles(repo, subdir string) ([]modzip.File, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", pathspec(subdir))
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		return nil, gitError("ls-files", err)
	}
	var files []modzip.File
	seen := map[string]bool{}
	for name := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		p := filepath.Join(repo, filepath.FromSlash(name))
		info, err := os.Lstat(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		files = append(files, diskFile{path: relTo(subdir, name), file: p, info: info})
	}
	return files, nil
}

func pathspec(subdir string) string {
	if subdir == "" {
		return "."
	}
	return subdir
}

// relTo is name (slash-separated, from the root) relative to subdir.
func relTo(subdir, name string) string {
	if subdir == "" {
		return name
	}
	return strings.TrimPrefix(name, path.Clean(subdir)+"/")
}

func gitError(what string, err error) error {
	if ee, ok := err.(*exec.ExitError); ok {
		return &gitFailure{what: what, stderr: strings.TrimSpace(string(ee.Stderr))}
	}
	return err
}

type gitFailure struct{ what, stderr string }

func (e *gitFailure) Error() string { return "git " + e.what + ": " + e.stderr }
