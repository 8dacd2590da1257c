package main

import (
	"context"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/du"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/ignore"
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
	m, err := ignore.Read(name)
	if err != nil {
		c.warn("%s", message.FileError(name, err))
		return 1, false
	}
	cfg.ignore = func(rel string, isDir bool) bool { return m.Match(strings.Split(rel, "/"), isDir) }
	return 0, true
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
