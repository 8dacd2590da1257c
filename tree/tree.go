// Package tree materializes directory trees: it clones a tree by reflinks,
// hard links or copies, and changes a tree's permissions the way a build
// cache needs, without ever following a symbolic link.
//
// Every step works relative to directory descriptors already open (openat
// and mkdirat with O_NOFOLLOW, linkat, symlinkat, fchmodat2 with
// AT_SYMLINK_NOFOLLOW), on the walk package's parallel walker, so a
// directory swapped for a symbolic link in the middle of a walk cannot make
// it read, write or chmod anything outside the tree.
//
// Linux and macOS. On macOS, Auto and Reflink clone a whole tree with one
// clonefileat(2) and CLONE_NOFOLLOW, falling back to file by file on a
// volume without clones; special files are not made again there. The
// macOS path builds and is vetted but has not run on a Mac. Elsewhere the
// functions return an error wrapping errors.ErrUnsupported.
package tree

import "fmt"

// Method is how Clone makes each file of the copy.
type Method string

const (
	Auto     Method = "auto"     // reflink where the file system can, else hard link, else copy
	Reflink  Method = "reflink"  // FICLONE: a copy-on-write clone (XFS, btrfs)
	Hardlink Method = "hardlink" // one hard link per file: the same inodes
	Copy     Method = "copy"     // copy_file_range
)

// Specials says what Clone does with FIFOs, sockets and devices.
type Specials int

const (
	SkipSpecials      Specials = iota // leave them out, counted in Result.Skipped
	ReproduceSpecials                 // make them again (mkfifo, mknod)
	FailOnSpecials                    // fail the clone
)

// Options configure Clone. The zero value clones with Auto, as many
// workers as GOMAXPROCS, and skips special files.
type Options struct {
	Method   Method
	Workers  int
	Specials Specials
	// MaxOpenDirs bounds the directories kept open on each side, source
	// and destination, besides one per worker; others are found again
	// from an open ancestor. Zero means a quarter of RLIMIT_NOFILE, at
	// most 1,024.
	MaxOpenDirs int
}

// Result says what Clone did.
type Result struct {
	Method   Method // the method used for the files (Auto resolved)
	Dirs     int
	Files    int
	Symlinks int
	Specials int   // special files made again
	Skipped  int   // special files left out
	Bytes    int64 // bytes of the regular files copied or cloned (0 for hard links, which read no file's size)
}

func (r Result) String() string {
	return fmt.Sprintf("%s: %d directories, %d files (%d bytes), %d symbolic links, %d special files, %d skipped",
		r.Method, r.Dirs, r.Files, r.Bytes, r.Symlinks, r.Specials, r.Skipped)
}

// Error is a failure at one path of a clone or a permission walk.
type Error struct {
	Op   string // what failed: "mkdirat", "linkat", "FICLONE", "fchmodat2"...
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Op + " " + e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }
