// Package walk walks directory trees in parallel on the frd lister.
//
// Each worker goroutine keeps its own [frd.Lister]. On Linux a directory is
// opened relative to its parent's descriptor (openat with O_NOFOLLOW), its
// entries come with their metadata from the listing (getdents64 and one
// statx per regular file, relative to the directory), and no file is ever
// stat'ed by its full path. A tree deeper than PATH_MAX walks completely,
// and the walker holds a bounded number of descriptors whatever the tree's
// shape.
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
