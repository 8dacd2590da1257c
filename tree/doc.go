// Package tree materializes directory trees: it clones a tree by reflinks,
// hard links or copies, with what cp -a keeps, and changes a tree's
// permissions the way a build cache needs, without ever following a
// symbolic link.
//
// [Clone] (or [CloneContext], to cancel it) materializes src at dst, which
// must not exist (its parent must), by [Reflink] (FICLONE, on XFS and
// btrfs), [Hardlink] (linkat), [Copy] (copy_file_range, or read and write
// across file systems), or [Auto]: a reflink where the file system makes
// one, else hard links where source and destination share a device, else
// copies (and a copy of a file whose link the kernel refuses, as
// fs.protected_hardlinks does for a file the user does not own). It keeps
// what cp -a keeps: modes, owners and groups (as root), access and
// modification times, extended attributes with POSIX ACLs and file
// capabilities, hard links within the tree, and holes. [Options] leave one
// out (NoOwner, NoTimes, NoXattrs, NoACLs, NoHardLinks); an attribute the
// destination refuses is a warning in Result.Warnings, as with cp.
// [FilesReadOnly] seals a tree's files (clears their write bits, keeping
// execute bits) and [DirsWritable] opens its directories to their owner,
// touching no file.
//
// # Safe against another user racing root
//
// Every step works relative to directory descriptors already open (openat
// and mkdirat with O_NOFOLLOW, linkat, symlinkat, fchmodat2 with
// AT_SYMLINK_NOFOLLOW), on the walk package's parallel walker:
//
//   - The source's, or the permission walk's, last component is never
//     followed: a symbolic link given as src is cloned as a link, one
//     given to FilesReadOnly or DirsWritable is refused ([ErrSymlink]), and
//     a directory is walked from the very descriptor it was opened by
//     (walk.DirsFile), so a link or another directory exchanged in for it
//     meanwhile is refused or treated as what it is.
//   - Each directory of a clone takes its owner and mode from fstat of the
//     descriptor the walk opened, never from an earlier stat of its name;
//     each file's from its own open descriptor. A set-id bit is never kept
//     for another owner or group than the source's.
//   - FilesReadOnly reads and sets a file's mode through one descriptor
//     (O_PATH on Linux): a file exchanged for another between the two is
//     never given the other's mode.
//   - A clone is built in a work directory beside dst ([TempPrefix]) that
//     only the cloning user may enter (mode 0700, its inherited ACLs
//     removed), checked on creation to be the one made, and renamed from it
//     to dst with renameat2(RENAME_NOREPLACE) (renameatx_np on macOS) only
//     when complete: a reader never sees half a tree at dst, and nothing
//     that appeared there meanwhile is replaced. What a failed or cancelled
//     clone made is removed through the work directory's descriptor, and
//     the work directory only if its name still holds it; a failed final
//     rename leaves the finished clone there and says where.
//
// A dst inside src is refused before anything is made ([ErrIntoItself]), by
// device and inode up dst's parents, as cp refuses, and so is a source
// that reaches the destination through a bind mount. The paths given are
// followed as given up to their last component. Every error is an [*Error]
// naming the operation, the full path, and the side it is on.
//
// # Where a clone differs from cp -a
//
//   - Extended attributes of symbolic links and special files are not
//     copied (no descriptor can be opened on them to read them safely).
//   - Hardlink makes symbolic links again (with their owner and times)
//     where cp -al hard-links them; hard links are kept for regular files
//     only.
//   - A directory's access time is the one read before listing it.
//   - A default ACL of dst's parent is not inherited by the clone.
//
// The tests compare clones with cp -a's on ext4, XFS and btrfs (mode,
// owner, group, size, times, device numbers, link targets, every extended
// attribute, holes and the hard-link structure), race every guarantee
// above as nobody, and clone and chmod with RLIMIT_NOFILE at 16.
//
// Linux and macOS. On macOS, Auto and Reflink clone a whole tree with one
// clonefileat(2) and CLONE_NOFOLLOW, falling back to file by file on a
// volume without clones; special files are not made again there. The
// macOS path builds and is vetted but has not run on a Mac. Elsewhere the
// functions return an error wrapping errors.ErrUnsupported.
package tree
