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
// buffer the kernel fills, lists raw descriptors with [Lister.AppendHandle],
// and can list names and types alone ([Lister.Names]) or every directory
// from its first entry ([Lister.Rewind]).
//
// On Linux a Lister with [Lister.FastStats] lets its stats bypass the
// scheduler's system-call bookkeeping (a third of a cached statx's cost)
// while they run as fast as cached ones on a local disk or in memory; a
// slow window of stats, a file on another device, or a network, FUSE,
// overlay, loop or nbd file system goes through the scheduler. It is off
// by default: a stat that blocks meanwhile holds its P.
//
// An [Entry] is comparable, so a change since the last listing is one ==.
// Every field but Name and Type is filled for regular files only.
//
// The records the kernel returns are parsed by plain, bounds-checked Go: a
// buffer that does not hold what it claims gives [ErrMalformed], never a
// panic.
package frd
