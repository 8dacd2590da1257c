// Package ignore reads fdu's --ignore-from file: gitignore patterns, with
// go-git's matcher. The file, which may be in a tree another user writes,
// must be a regular file of bounded size: a FIFO, a device or a link to
// one is refused before it is read, so it can neither hold fdu nor feed
// it without end.
package ignore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// maxSize is the largest pattern file read: git's own limit for a
// .gitignore (PATTERN_MAX_FILE_SIZE).
var maxSize = 100 << 20

// errNotRegular is a pattern file that is not a regular file.
var errNotRegular = errors.New("not a regular file: a pattern file must be one")

// Read reads the gitignore patterns of the file name (blank lines and #
// comments skipped, as git does), to be matched against paths below the
// directory scanned, as a .gitignore at its top is.
func Read(name string) (gitignore.Matcher, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.LimitReader(f, int64(maxSize)+1)
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(r)
	read := 0
	for sc.Scan() {
		read += len(sc.Bytes()) + 1
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, nil))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if read > maxSize {
		return nil, fmt.Errorf("larger than %d MiB: not a pattern file", maxSize>>20)
	}
	return gitignore.NewMatcher(ps), nil
}
