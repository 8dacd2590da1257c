// Package snapshot records a directory tree's metadata in a compact file
// and tells, later, what changed since: [Take] writes a snapshot, and
// [Compare] compares one with the tree now ([CompareSnapshots] with a
// later snapshot), reporting each [Change] in path order: added, removed,
// modified (contents: size, modification time, link target, another inode
// under the name, a hash), metadata only (permissions, owner, link count,
// change time), type changed, moved (the same inode at another path),
// possibly changed (racy, below) and unreadable now.
//
// # The contract
//
// No change is missed: every path whose type, contents or recorded
// metadata differs from the snapshot is reported, under these
// assumptions, and each place the package cannot prove a file unchanged
// is reported as possibly changed ([Racy]) rather than left out:
//
//   - The clock is not set back, and a file's times are not set to the
//     exact nanosecond they had (only root can set a change time, by
//     setting the clock).
//   - Writes through a shared mapping show once the kernel updates the
//     file's times (on the first write fault after a writeback).
//   - The default keys ([AllKeys]) are recorded, and neither
//     CompareOptions.IgnoreChangeTime nor IgnoreFileID is set: each gives
//     up the cases its doc names.
//   - On file systems without change times (FAT, exFAT, and those not
//     known here, FUSE included), a rewrite or a replacement that keeps
//     the size and modification time (or sets it back) shows in no stat,
//     and inode numbers are not compared (FUSE hands out new ones when the
//     kernel forgets an inode); there only hashes see it: Take with
//     [HashRacy] hashes every regular file on such a file system, and
//     CompareOptions.Hash compares.
//
// Only the root's own metadata is not compared: what it holds is.
//
// # Racy entries
//
// A file written in the same tick of its file system's clock as its stat
// by Take, and again after it, keeps its times: its stat cannot tell. As
// git does for its index (Documentation/technical/racy-git.txt), an entry
// whose modification or change time is not older than the snapshot's
// start ([Header].Start) by the file system's timestamp granularity plus
// the kernel clock's step ([Header].ClockStep, a jiffy on Linux: file
// times come from a coarse clock that lags the real one by up to a tick)
// is racy. A racy regular file whose stat is unchanged is reported as
// Racy, unless Take hashed it ([HashRacy] or [HashAll]) and the compare
// reads it again (CompareOptions.Hash): then it is reported only if its
// contents differ. A racy directory is listed again (below). Once the
// window has passed, an untouched tree reports nothing.
//
// The granularity is found per file system at Take time from statfs's
// type (on Linux) and recorded with the device ([Device]):
//
//   - ext4: 1 ns, or 1 s where the file system has no nanoseconds
//     (128-byte inodes, as ext2 and ext3 make; seen as statx giving no
//     birth time). XFS, btrfs, tmpfs and F2FS: 1 ns. All keep change
//     times, stable inode numbers and directory times.
//   - FAT and exFAT: 2 s (the coarser of their steps), no change time,
//     inode numbers made up from where an entry sits (no moves found),
//     and directories listed every time. Tested through the kernel's
//     drivers where present, else through FUSE (fusefat, exfat-fuse).
//   - NFS and SMB: 2 s, and directories listed every time: times come
//     from the server's clock, whose offset from this one the window
//     does not cover (not verified here). Stats ask the server again
//     rather than answer from the attribute cache (AT_STATX_FORCE_SYNC).
//   - FUSE, overlayfs and any other type: as FAT, the most careful.
//   - macOS (APFS, HFS+), Windows (NTFS) and the BSDs: every file system
//     is taken as unknown (2 s, directories always listed); Windows has
//     no change time or inode number through the path-based stat used
//     there, so only size and modification time compare. Not verified
//     here: the package builds and vets for them.
//
// # Doing less than a walk
//
// A directory's modification and change times change whenever a name is
// added to it, removed or renamed, and a change time cannot be set back
// (touch -d restores a modification time and sets the change time to
// now). So Compare lists a directory again only when it must, and
// otherwise stats the names the snapshot holds, relative to the
// directory's descriptor (git's untracked cache idea): a directory is
// not listed when its stat now has the same device, inode, modification
// and change time as Take's stat of it before it listed it, its file
// system is one whose directory times are kept (ext4, XFS, btrfs, tmpfs,
// F2FS on Linux), and those times were outside the racy window. It is
// listed when any of that fails: its times changed or were racy, it was
// replaced, a mount was made or undone on it (its device differs), or its
// file system's directory times are not trusted (FAT, exFAT, NFS, SMB,
// FUSE, overlayfs, anything unknown, every file system off Linux). The
// files themselves are stat'ed either way.
//
// # Memory and moves
//
// Both sides are read in path order, each directory's entries sorted by
// name, and merged as they come: memory holds the directories on the path
// being compared, up to 64 directories read ahead and checked by the
// workers, and the changes held back for moves, never the tree.
// A removal and an addition of one inode (with the same type and, but for
// a directory, size and modification time) on a file system whose inode
// numbers survive renames are reported as one move when no more than
// CompareOptions.MoveWindow changes (DefaultMoveWindow) lie between them;
// farther apart they are reported as a removal and an addition. A moved
// directory's entries are each reported as moved too. A moved file whose
// contents also changed is reported as moved, then as modified.
//
// # The file
//
// A snapshot starts with "frdsnap" and a version byte, and holds blocks
// of up to 64 KiB, each with its length and a CRC-32C; no item spans two
// blocks, and an end record with the counts and an empty block close it.
// Entries are varints and deltas from the previous entry, names share a
// prefix with the previous name, paths with the previous directory's, and
// owners and devices are tables filled as they are met: 15 to 20 bytes
// an entry on a source tree. A corrupt, truncated or other-version snapshot
// is an error wrapping [ErrFormat] that names the byte offset, never a
// wrong compare; [WriteFile] writes a temporary file beside the target
// and renames it into place. [Reader] reads a snapshot directory by
// directory.
//
// Take walks with package walk (one worker, sorted listings, so that the
// stream comes in path order) and stats every entry relative to its
// directory, as Compare does; neither follows a symbolic link, and both
// close every descriptor they open however they end.
package snapshot
