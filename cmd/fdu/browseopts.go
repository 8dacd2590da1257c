package main

import (
	"bufio"
	"context"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// browserOnly names the first of the browser's scan options given, or "":
// du's report mirrors GNU du, which has none of them.
func browserOnly(v *flagValues) string {
	for _, o := range []struct{ flag, name string }{
		{"extended", "-e"}, {"exclude-caches", "--exclude-caches"}, {"exclude-kernfs", "--exclude-kernfs"},
		{"ignore-from", "--ignore-from"},
	} {
		if v.fl.Changed(o.flag) {
			return o.name
		}
	}
	return ""
}

// browseExtras reads --ignore-from's file once, before any screen.
func (c *command) browseExtras(cfg *config, v *flagValues) (int, bool) {
	name := *v.browse.ignoreFrom
	if name == "" {
		return 0, true
	}
	m, err := readIgnore(name)
	if err != nil {
		c.warn("%s", message.FileError(name, err))
		return 1, false
	}
	cfg.ignore = func(rel string, isDir bool) bool { return m.Match(strings.Split(rel, "/"), isDir) }
	return 0, true
}

// readIgnore reads a file of gitignore patterns (blank lines and #
// comments skipped, as git does), matched against paths below the
// directory scanned, as a .gitignore at its top is.
func readIgnore(name string) (gitignore.Matcher, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, nil))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return gitignore.NewMatcher(ps), nil
}

// scanExtras adds -e and the browser's exclusions to a scan's options.
func (c *command) scanExtras(cfg *config, o *dutree.ScanOptions) {
	bf := cfg.flags.browse
	o.Extended = *bf.extended
	o.ExcludeCaches = *bf.excludeCaches
	o.ExcludeKernFS = *bf.excludeKernFS
	o.Ignore = cfg.ignore
}

// streams reports whether -o can write as it scans (dutree.Stream): not
// through links, nor with the exclusions only the tree's scan makes.
func (c *command) streams(cfg *config) bool {
	bf := cfg.flags.browse
	return cfg.du.Deref != du.DerefAll && !*bf.excludeCaches && !*bf.excludeKernFS && cfg.ignore == nil
}

// scanQuietly scans dir for -o, each error reported as met; nil when dir
// could not be read.
func (c *command) scanQuietly(cfg *config, dir string) *dutree.Tree {
	t, errs, err := dutree.Scan(context.Background(), dir, c.scanOptions(cfg))
	for _, e := range errs {
		c.errOut(scanError(e))
	}
	if err != nil {
		c.errOut(message.CannotReadDir(dir, err))
		return nil
	}
	return t
}
