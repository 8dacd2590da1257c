// Package walk walks directory trees in parallel on the frd lister.
//
// Each worker goroutine keeps its own [frd.Lister]. On Linux, macOS and
// the BSDs a directory is opened relative to its parent's descriptor
// (openat with O_NOFOLLOW), its entries come with their metadata from the
// listing (on Linux getdents64 and one statx per regular file, relative to
// the directory), and no file is ever stat'ed by its full path, so a
// directory swapped for a symbolic link mid-walk is refused, not followed,
// and a tree deeper than PATH_MAX walks completely. Windows, Solaris, AIX
// and Plan 9 walk by path: there a swap between the check and the open is
// not detected. The BSDs' descriptor walk is vetted, not verified on a
// real system.
//
// Two ways in:
//
//   - [Dirs] calls a [DirFunc] once per directory with its whole listing and
//     metadata: the fast path, with no call per entry. [Options.Post] runs
//     after a directory's subtree, for totals computed bottom-up.
//     [DirsFile] walks a directory its caller opened and checked itself.
//   - [WalkDir] and [Walk] take an [fs.WalkDirFunc], as filepath.WalkDir and
//     fastwalk.Walk do, so a program can switch by changing an import. The
//     differences are listed on WalkDir.
//
// # Errors and early stops
//
// fs.SkipDir and fs.SkipAll keep their io/fs meanings. An unreadable
// directory is reported and the walk goes on; an entry that cannot be
// stat'ed is reported and left out of its listing; a directory removed
// between its parent's listing and its open is left out; cancelling the
// context stops the walk at the next directory. However a walk ends (an
// error from a callback, SkipAll, a cancelled context, a panic), every
// descriptor it opened is closed when Dirs returns; a panic in a callback
// is raised again in the caller's goroutine, and runtime.Goexit (a
// t.FailNow) is passed on the same way.
//
// # Descriptors
//
// The walker holds at most [Options.MaxOpenDirs] kept descriptors plus the
// root's and one or two per worker. A directory's descriptor is kept
// until its subtree is done, the one kept longest making way for a deeper
// one; a directory whose parent's descriptor is no longer kept finds it
// through ".." from a directory kept below it, as fts goes back up, or
// else from its nearest open ancestor, one openat(O_NOFOLLOW) per level,
// each step checked by device and inode to reach the directory listed
// before: a chain of any depth costs a few opens a directory. Where
// RLIMIT_NOFILE leaves less than that needs, the walk runs fewer workers
// and keeps fewer descriptors: it counts those already open (on Linux
// from /proc/self/fd), and walks running at once in one process each
// reserve what they plan, so they share the limit rather than each plan
// for all of it. Only descriptors
// opened by other code while a walk runs can still make it meet EMFILE,
// which it then reports.
//
// # Layout
//
// walk.go holds the API and [Dirs]; scheduler.go the shared stack of
// directories and how a walk ends (halt); worker.go a worker, its Listers
// and its visit of one directory, part by part; listing.go how a part is
// read and stat'ed; node.go the directories found; ioworkers.go the extra
// workers that start while the disk is read; linkset.go [LinkSet]. An
// option of the walker is a field of [Options], resolved once in
// walker.plan.
//
// Nothing is shared between walks: no package-level goroutines, pools or
// semaphores.
package walk
