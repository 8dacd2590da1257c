package tree

import (
	"errors"
	"fmt"
)

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
// workers as GOMAXPROCS, skips special files, and keeps what cp -a keeps.
type Options struct {
	Method   Method
	Workers  int
	Specials Specials
	// MaxOpenDirs bounds the directories kept open on each side, source
	// and destination, besides four descriptors per worker; others are
	// found again from an open ancestor. Zero means a quarter of
	// RLIMIT_NOFILE, at most 1,024. A low RLIMIT_NOFILE lowers both.
	MaxOpenDirs int

	// What a copy or a reflink keeps of each file, directory, link and
	// special file besides its mode and contents: by default all that
	// cp -a keeps. (A hard link is the source's own inode.)
	NoOwner  bool // leave owner and group to the cloning user, as cp -r does
	NoTimes  bool // leave access and modification times at the time of the clone
	NoXattrs bool // leave out extended attributes (ACLs and file capabilities too)
	NoACLs   bool // leave out the POSIX ACLs alone (system.posix_acl_access, _default)
	// NoHardLinks copies each name of a file with several links within
	// the tree on its own; by default they stay links of one new file.
	NoHardLinks bool
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
	// Copied counts the files Auto copied because the kernel refused
	// their hard link (fs.protected_hardlinks, for a file the cloning
	// user does not own).
	Copied int
	// Warnings are what could not be kept without failing the clone, as
	// cp reports them: an extended attribute the destination refused.
	Warnings []error
}

func (r Result) String() string {
	s := fmt.Sprintf("%s: %d directories, %d files (%d bytes), %d symbolic links, %d special files, %d skipped",
		r.Method, r.Dirs, r.Files, r.Bytes, r.Symlinks, r.Specials, r.Skipped)
	if r.Copied > 0 {
		s += fmt.Sprintf(", %d copied where a hard link was refused", r.Copied)
	}
	return s
}

// ErrIntoItself is wrapped by the error for a destination inside the
// source tree, which would clone itself without end.
var ErrIntoItself = errors.New("cannot clone a directory into itself")

// Error is a failure at one path of a clone or a permission walk.
type Error struct {
	Op   string // what failed: "mkdirat", "linkat", "FICLONE", "fchmodat2"...
	Path string // the full path of what failed
	// Role is "source" or "destination" in a clone: which tree Path is in.
	Role string
	Err  error
}

func (e *Error) Error() string {
	if e.Role == "" {
		return e.Op + " " + e.Path + ": " + e.Err.Error()
	}
	return e.Op + " " + e.Role + " " + e.Path + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }
