package du

import (
	"github.com/pbednarcik/flexreaddir/cmd/internal/coldprocs"
	"github.com/pbednarcik/flexreaddir/walk"
)

// Deref is which symbolic links du follows.
type Deref int

// Symbolic-link modes: -P (the default), -H and -D, -L.
const (
	DerefNone Deref = iota
	DerefArgs
	DerefAll
)

// Config is what the command line asks of the scans.
type Config struct {
	All          bool // -a: every file is kept, for a line of its own
	KeepFiles    bool // a view needs every file, named
	Apparent     bool // --apparent-size: bytes, not blocks
	SeparateDirs bool // -S
	OneFS        bool // -x
	CountLinks   bool // -l: a file linked twice counts twice
	ShowTime     bool // --time: each entry's time is read
	TimeType     string
	Deref        Deref
	MaxDepth     int      // --max-depth; -s is 0
	Exclude      Excluder // --exclude and --exclude-from
	Jobs         int      // -j: the walk's workers
	// HashAll sends every file through the hard-link set (several
	// arguments, or -L), not only those with several links, as du does.
	HashAll bool
}

// Summable reports whether the run prints only each argument's total
// (-s, no -a, no -S): then nothing needs the tree, whose order only matters
// for the lines below the argument, and the walk just adds up. Not under
// -L: a directory two links lead to is walked once, through whichever the
// walk reaches first, and its errors are du's only if named where du's
// order meets it first, which the tree's report works out.
func (c *Config) Summable() bool {
	return c.MaxDepth == 0 && !c.All && !c.SeparateDirs && c.Deref != DerefAll
}

// DirsOnce reports whether each directory counts once, by device and
// inode, wherever met: du hashes every file (HashAll), and -l does not
// ask to count links again.
func (c *Config) DirsOnce() bool { return c.HashAll && !c.CountLinks }

// FileOnce reports whether a command-line file of nlink links goes
// through the hard-link set.
func (c *Config) FileOnce(nlink uint64) bool { return !c.CountLinks && (c.HashAll || nlink > 1) }

// WalkOptions is the walk a scan of c's files runs: the one place fdu
// fills walk.Options. du's own walks (asDu) read a huge directory a
// buffer at a time and report a directory moved while walked and an
// entry gone between its listing and its stat, as du's fts does; the
// browser's tree takes each listing whole and sets its own OnError.
// Each walk needs options of its own: the I/O hook counts one walk.
func (c *Config) WalkOptions(asDu bool, onError func(*walk.Error) error) *walk.Options {
	return &walk.Options{
		Workers:        c.Jobs,
		IOWorkers:      coldprocs.Extra(c.Jobs),
		OnIOWorkers:    coldprocs.Hook(),
		OneFileSystem:  c.OneFS,
		FollowSymlinks: c.Deref == DerefAll,
		StatAll:        true,
		Reuse:          true, // every scan copies what it keeps of a name, and keeps no Dir
		Batches:        asDu,
		DetectMoves:    asDu,
		ReportVanished: asDu,
		OnError:        onError,
	}
}
