//go:build unix

package dutree

import "github.com/pbednarcik/flexreaddir/walk"

// walkWorkers is a scan's walk on n workers, stating every entry as
// fdu's scans do.
func walkWorkers(n int) func() *walk.Options {
	return func() *walk.Options { return &walk.Options{Workers: n, StatAll: true, Reuse: true} }
}
