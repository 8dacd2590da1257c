// Package frd lists a directory with every entry's name, type, size,
// modification and change time and file id in one pass, using each
// platform's bulk call: getdents64 with one statx per regular file,
// relative to the open directory, on Linux; getattrlistbulk on macOS
// (__getdirentries64 for names alone); GetFileInformationByHandleEx with
// the ID_EXTD or FULL directory classes on Windows; and on the other
// systems a portable listing (os.ReadDir) with one lstat per regular file.
//
// [ReadDir] lists a directory by name and sorts it as [os.ReadDir] does.
// [AppendDir] lists an open directory into a slice the caller reuses, in the
// kernel's order. A walker keeps one [Lister] per goroutine: it owns the
// buffer the kernel fills, lists raw descriptors with [Lister.AppendHandle]
// (one kernel buffer at a time with [Lister.AppendPart]), and can list
// names and types alone ([Lister.Names]) or every directory from its first
// entry ([Lister.Rewind]). [Lister.Stat] fills in a names listing's
// metadata, for splitting a huge directory's stats across goroutines;
// [Lister.Vanished] and [Lister.Failed] hear of entries removed before
// their stat, or whose stat failed, while the listing goes on.
//
// On Linux a Lister with [Lister.FastStats] lets its stats bypass the
// scheduler's system-call bookkeeping (a third of a cached statx's cost)
// while they run as fast as cached ones on a local disk or in memory; a
// slow window of stats, a file on another device, or a network, FUSE,
// overlay, loop or nbd file system goes through the scheduler. It is off
// by default: a stat that blocks meanwhile holds its P.
//
// # Entries
//
// Name and Type are always set. Every other field is filled for regular
// files only, is zero for every other type, and is zero for every entry of
// a Names listing:
//
//   - Size: the data length (Linux stx_size; macOS ATTR_FILE_DATALENGTH;
//     Windows EndOfFile; elsewhere lstat's).
//   - ModTimeNanos, ChangeTimeNanos: Unix nanoseconds (stx_mtime and
//     stx_ctime; ATTR_CMN_MODTIME and CHGTIME; LastWriteTime and
//     ChangeTime; lstat's, the change time where Stat_t has one).
//   - FileID: the inode number, 0 if unknown (stx_ino; ATTR_CMN_FILEID on
//     a volume that keeps ids; the file id where it fits 64 bits; st_ino).
//   - Allocated: bytes allocated, below Size for a sparse file (512 times
//     stx_blocks; ATTR_FILE_ALLOCSIZE rounded up to 512; AllocationSize).
//   - Links and Device: the hard-link count and st_dev, which with FileID
//     identify a file ([Entry.ID]); 0 on Windows, whose listings lack them.
//
// An [Entry] is comparable, so "did this file change since the last
// listing" is one !=; since the change time is part of it, a permissions
// change counts as a change. The names from one read share one
// allocation: a Name kept long after its neighbours are gone is worth a
// strings.Clone.
//
// # Behaviour on every platform
//
//   - Entries come in the kernel's order from AppendDir; ReadDir sorts.
//   - "." and ".." are never included.
//   - A symbolic link is reported as a link and never followed.
//   - A name removed between the read and its stat is left out; one
//     replaced by another type in between is reported with the type the
//     stat saw.
//   - Errors are *os.PathError: open (ENOTDIR for a file, ENOENT), the
//     listing call naming the directory, or statx naming the entry, with
//     every entry read before it. A buffer that does not hold what the
//     kernel claims gives [ErrMalformed], never a panic: the records are
//     parsed by plain, bounds-checked Go, fuzzed on every platform's
//     layouts.
//   - Don't mix AppendDir with the file's own ReadDir, Readdir or
//     Readdirnames: they buffer entries the native listing cannot see.
//   - A Lister must not be used by two goroutines at once; one descriptor
//     is listed by one goroutine at a time, since calls share its offset.
//
// # Linux
//
// The directory is read with getdents64 into the Lister's buffer (the
// function AppendDir borrows one from a sync.Pool), and each regular file
// is stat'ed with statx(dirfd, name, AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT|
// AT_STATX_DONT_SYNC) asking only for type, size, times, inode, links and
// blocks, the name passed straight from the kernel's buffer, so the stat
// path allocates nothing. Directories, symbolic links and special files
// take their type from d_type; an entry whose d_type is DT_UNKNOWN (ext4
// made with -O ^filetype) is stat'ed for its type, under Names too. EINTR
// is retried. A listing that has run 2 ms yields to the scheduler once:
// Go's sysmon otherwise takes the P of a goroutine in a long run of system
// calls whenever every P is busy. Where statx answers ENOSYS (a kernel
// before 4.11) or EPERM (an old seccomp filter), every stat from then on
// is fstatat with the same flags. A directory that may be read but not
// searched lists its names, and its first regular file's stat fails with
// EACCES naming it (Failed, if set, hears of each instead).
//
// # macOS (not verified on a Mac)
//
// A full listing is getattrlistbulk asking for the name, type, device,
// times, file id and, for files, the link count, allocated size and data
// length; Names is __getdirentries64, reading the end-of-directory flag
// from the buffer's last word; Rewind is lseek. A record that lacks an
// attribute its Entry takes is stat'ed on its own; a record without a
// name is left out and the listing ends with an error wrapping
// ErrMalformed; ERANGE grows the buffer; a file system without the call
// (ENOTSUP) gets a names listing and one lstat per entry. [Volume],
// [VolumeCaps] and [DirLinks] use fgetattrlist. FileID is 0 where the
// volume does not keep persistent ids. The calls go to libSystem without
// cgo, as golang.org/x/sys does (internal/libsystem). __getdirentries64 is
// a private symbol: the App Store rejects a binary that imports it, which
// every macOS binary using this package does; command-line tools and
// servers are not affected. The record parsers run and are fuzzed on
// Linux against buffers built to xnu's bsd/sys/attr.h layouts, and the
// listing's decisions against a fake getattrlistbulk; that the kernel
// fills the buffers as they expect has not been run on real hardware.
//
// # Windows
//
// GetFileInformationByHandleEx into a 64 KiB buffer with
// FileIdExtdDirectoryInfo (the restart class for the first call under
// Rewind), falling back to the FULL classes on a volume or filter driver
// that refuses the file id; Names asks for FILE_FULL_DIR_INFO.
// ERROR_NO_MORE_FILES ends a listing, ERROR_FILE_NOT_FOUND before any
// record is an empty directory, ERROR_MORE_DATA doubles the buffer. Types
// follow package os: a name-surrogate reparse point is never a directory.
// Names are decoded from UTF-16 to WTF-8 as package syscall does, runs of
// ASCII 16 code units at a time with AVX2 (8 with SSE2) on amd64, in Go
// elsewhere and under -tags purego. The protocol and the record parsers
// run on Linux against a fake volume answering as MS-FSA says, and the
// tests run under Wine (which refuses the ID_EXTD classes); NTFS and ReFS
// themselves are not verified here.
//
// # Other systems
//
// The os package's listing and one lstat per regular file by its full
// path. AppendHandle returns an error wrapping errors.ErrUnsupported.
package frd
