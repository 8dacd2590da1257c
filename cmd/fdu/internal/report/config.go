package report

import (
	"time"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/units"
)

// Config is how the report shows what the scans counted; the scans' own
// options (-a, -S, --max-depth, -l...) are du.Config's.
type Config struct {
	Unit       units.BlockSize
	Threshold  int64 // -t: at least so large; negative, at most -Threshold
	Inodes     bool  // --inodes: counts, not sizes
	Null       bool  // -0: lines end with NUL
	Total      bool  // -c
	TimeFormat string
	Loc        *time.Location // --time's zone

	View    View // fdu's view instead of du's lines, or ""
	Depth   int  // --depth: levels the tree view shows
	Top     int  // --top: entries per level in the tree view
	Largest int  // --largest: how many files
}

// View is one of fdu's views beyond du.
type View string

// The views: a tree of the largest entries, the whole tree as JSON, and
// the largest files.
const (
	TreeView    View = "tree"
	JSONView    View = "json"
	LargestView View = "largest"
)

// Messages is where the report's messages go.
type Messages struct {
	Error func(msg string) // an error: the run fails
	Note  func(msg string) // a warning: it does not
}
