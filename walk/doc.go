// Package walk walks directory trees in parallel on the frd lister.
//
// Each worker goroutine keeps its own [frd.Lister]. On Linux, macOS and
// the BSDs a directory is opened relative to its parent's descriptor
// (openat with O_NOFOLLOW), its entries come with their metadata from the
// listing (on Linux getdents64 and one statx per regular file, relative to
// the directory), and no file is ever stat'ed by its full path, so a
// directory swapped for a symbolic link mid-walk is refused, not followed.
// A tree deeper than PATH_MAX walks completely, and the walker holds a
// bounded number of descriptors whatever the tree's shape, fitting itself
// into RLIMIT_NOFILE (fewer workers rather than EMFILE). However a walk
// ends, by an error, SkipAll, a cancelled context or a callback's panic
// (raised again in the caller), every descriptor it opened is closed when
// it returns. Windows and the other systems walk by path.
//
// Two ways in:
//
//   - [Dirs] calls a [DirFunc] once per directory with its whole listing and
//     metadata: the fast path, with no call per entry. [Options.Post] runs
//     after a directory's subtree, for totals computed bottom-up.
//   - [WalkDir] and [Walk] take an [fs.WalkDirFunc], as filepath.WalkDir and
//     fastwalk.Walk do, so a program can switch by changing an import. The
//     differences are listed on WalkDir.
//
// Nothing is shared between walks: no package-level goroutines, pools or
// semaphores.
package walk
