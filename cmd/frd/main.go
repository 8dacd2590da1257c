// Command frd shows what the frd lister sees, and materializes trees.
//
//	frd ls [--json] [--names] DIR...
//	frd clone [--method auto|reflink|hardlink|copy] [--specials skip|copy|fail] [--no-owner] [--no-times] [--no-xattrs] [--no-acls] [--no-hard-links] SRC DST
//	frd chmod --files-readonly|--dirs-writable DIR
//	frd find [-0] [-c] [-j N] DIR...
//	frd snap [--hash|--hash-all] [-x] [--exclude PATTERN]... DIR -o FILE
//	frd diff [-0|--json] [--ignore-ctime] [--ignore-inode] [--hash] [--exclude PATTERN]... FILE [DIR|FILE2]
//
// ls lists each directory with every entry's type, size, modification time
// and file id, sorted by name, from one listing. clone materializes SRC at
// DST by reflinks, hard links or copies, and chmod seals a tree's files or
// opens its directories, never following a symbolic link. snap records a
// tree, and diff says what changed in it since.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
	"github.com/pbednarcik/flexreaddir/frd"
)

const usage = `usage: frd ls [--json] [--names] DIR...
       frd clone [--method auto|reflink|hardlink|copy] [--specials skip|copy|fail]
                 [--no-owner] [--no-times] [--no-xattrs] [--no-acls] [--no-hard-links] [-j N] SRC DST
       frd chmod --files-readonly|--dirs-writable [-j N] DIR
       frd find [-0] [-c] [-j N] DIR...
       frd snap [--hash|--hash-all] [-x] [--exclude PATTERN]... DIR -o FILE
       frd diff [-0|--json] [--ignore-ctime] [--ignore-inode] [--hash]
                [--exclude PATTERN]... FILE [DIR|FILE2]
       frd --help | --version

ls lists each DIR (default .) with the type, size, modification time and file
id of every entry, sorted by name. Fields other than the name and type are
shown for regular files only.

  --json    one JSON object per directory: {"dir": ..., "entries": [...]}
  --names   names and types only (no stat per file)

clone makes DST (which must not exist; its parent must) a copy of SRC, by
the fastest method the file systems allow unless --method says: reflinks
(XFS, btrfs), hard links, or copies. It keeps what cp -a keeps: modes,
owners (as root), times, extended attributes, ACLs and capabilities, hard
links within the tree and holes; the --no-* options leave one out. A
set-id bit whose owner could not be kept is cleared. Symbolic links are
made again as links, never followed; SRC itself is never followed (a link
given as SRC is cloned as a link), and a directory is cloned from the one
descriptor it was opened by, with that directory's own owner and mode.
The copy is built in .frd-clone-XXXXXXXXXXXXXXXX-NAME, a directory beside
DST that only the cloning user may enter, and renamed to DST when
complete; on an error, SIGINT or SIGTERM what it made is removed (after
SIGKILL it is left, and may be removed). If DST appeared meanwhile the
finished copy is left in that directory, and the message says where. It
prints the method used and the counts, and on stderr what it could not
keep. -j sets the copying goroutines (default: the CPUs).

chmod --files-readonly clears the write bits of every regular file under
DIR, keeping execute bits, but for a file with several links of another
owner than its directory's (anyone who may write a directory may link
into it a file they may write, another user's among them): that one is
left as it is, and named. --dirs-writable gives the owner write
permission on every directory, touching no file. Neither follows a
symbolic link, DIR included: a link given as DIR is refused. -j sets the
walking goroutines (default: the CPUs).

find prints the path of every entry under each DIR (default .), DIR first,
one a line, as find does, in the order the parallel walk meets them; it
stats no file. -0 ends each path with a NUL instead (a name may hold a
newline); -c prints only how many paths there are; -j sets
the walking goroutines (default: the CPUs).

snap writes a snapshot of DIR to FILE (through a temporary file beside it,
renamed into place): every entry's path, type, permissions, owner, size,
modification and change times, inode, link count and link target, and when
the snapshot began. --hash also stores the SHA-256 of each file changed too
recently for its times to tell a later change (racy), --hash-all of every
file; -x stays on DIR's file system; --exclude leaves out what matches
PATTERN (path.Match syntax: against the name, or with a "/" against the
path from DIR, a leading "/" anchoring it there), now and in every diff.
Exit status 0; 1 when some entries could not be read (the snapshot is
written, and a diff reports them); 2 on trouble.

diff compares FILE with DIR (default: the directory FILE was taken of) or
with a later snapshot FILE2, printing one change a line in path order, as
git status --porcelain does: A added, D removed, M modified contents (size,
mtime, link target, another inode), m metadata only (permissions, owner,
links, ctime), T type changed, R moved (the same inode, "R old -> new"), ?
possibly changed (changed in the same clock tick as the snapshot, or not
read by it), ! unreadable now. Names with control characters, quotes,
backslashes or bytes above 0x7f are quoted as git quotes them.

  -0              NUL after each name, raw; a move is "R new" NUL "old" NUL
  --json          one JSON object per line
  --ignore-ctime  no change of ctime alone
  --ignore-inode  no inode compared: no moves, no replaced files by inode
  --hash          read racy files (and ctime-only changes) and compare them
                  with the hashes snap --hash stored
  --exclude P     also leave out what matches P

Exit status 0 when nothing changed, 1 when something did, 2 on trouble
(an entry unreadable now included).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its arguments and streams; it returns the exit
// status: 0, 1 when a directory could not be listed in full, 2 for bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "clone":
			return runClone(args[1:], stdout, stderr)
		case "chmod":
			return runChmod(args[1:], stdout, stderr)
		case "find":
			return runFind(args[1:], stdout, stderr)
		case "snap":
			return runSnap(args[1:], stdout, stderr)
		case "diff":
			return runDiff(args[1:], stdout, stderr)
		case "--help":
			fmt.Fprint(stdout, usage)
			return 0
		case "--version":
			fmt.Fprint(stdout, version.Text("frd", "The frd lister's view of directories, and trees materialized: https://github.com/pbednarcik/flexreaddir"))
			return 0
		}
		if shell, ok := strings.CutPrefix(args[0], "--completion="); ok && len(args) == 1 {
			return completion(shell, stdout, stderr)
		}
	}
	if len(args) == 0 || args[0] != "ls" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	fs, o := lsFlags()
	if err := parseFlags(fs, args[1:], stderr); err != nil {
		return 2
	}
	asJSON, names := o.asJSON, o.names
	dirs := fs.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	l := frd.Lister{Names: *names}
	var entries []frd.Entry
	status := 0
	enc := json.NewEncoder(stdout)
	for i, dir := range dirs {
		var err error
		entries, err = list(&l, entries[:0], dir)
		if err != nil {
			warn(stderr, "frd", err)
			status = 1
		}
		frd.SortByName(entries)
		if *asJSON {
			out := jsonDir{Dir: dir, DirBytes: exactBytes(dir), Entries: make([]jsonEntry, len(entries))}
			for i, e := range entries {
				out.Entries[i] = toJSON(e)
			}
			if err := enc.Encode(out); err != nil {
				warn(stderr, "frd", err)
				return 1
			}
			continue
		}
		if len(dirs) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "%s:\n", dir)
		}
		for _, e := range entries {
			printEntry(stdout, e)
		}
	}
	return status
}

func list(l *frd.Lister, dst []frd.Entry, dir string) ([]frd.Entry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return dst, err
	}
	defer f.Close()
	return l.AppendDir(dst, f)
}

func printEntry(w io.Writer, e frd.Entry) {
	kind := e.Type.String()[:1]
	if e.Type.IsRegular() {
		kind = "-"
	}
	name := e.Name
	if strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f || r == '\uFFFD' }) {
		name = fmt.Sprintf("%q", name)
	}
	if !e.Type.IsRegular() || e.ModTimeNanos == 0 && e.Size == 0 && e.FileID == 0 {
		fmt.Fprintf(w, "%s %12s %16s %10s %s\n", kind, "", "", "", name)
		return
	}
	fmt.Fprintf(w, "%s %12d %16s %10d %s\n", kind, e.Size, e.ModTime().Format("2006-01-02 15:04"), e.FileID, name)
}

// A name or path that is not valid UTF-8 is written with U+FFFD in its
// place, as encoding/json writes it, and exactly in the _bytes field
// beside it (base64), so that distinct names stay distinct.
type jsonDir struct {
	Dir      string      `json:"dir"`
	DirBytes []byte      `json:"dir_bytes,omitempty"`
	Entries  []jsonEntry `json:"entries"`
}

type jsonEntry struct {
	Name       string     `json:"name"`
	NameBytes  []byte     `json:"name_bytes,omitempty"`
	Type       string     `json:"type"`
	Size       int64      `json:"size,omitempty"`
	ModTime    *time.Time `json:"mtime,omitempty"`
	ChangeTime *time.Time `json:"ctime,omitempty"`
	FileID     uint64     `json:"fileid,omitempty"`
	Allocated  int64      `json:"allocated,omitempty"`
	Links      uint64     `json:"links,omitempty"`
	Device     uint64     `json:"device,omitempty"`
}

// exactBytes is s's bytes when JSON cannot carry them in a string.
func exactBytes(s string) []byte {
	if utf8.ValidString(s) {
		return nil
	}
	return []byte(s)
}

func toJSON(e frd.Entry) jsonEntry {
	j := jsonEntry{
		Name: e.Name, NameBytes: exactBytes(e.Name), Type: typeName(e.Type), Size: e.Size, FileID: e.FileID,
		Allocated: e.Allocated, Links: e.Links, Device: e.Device,
	}
	if e.ModTimeNanos != 0 {
		t := time.Unix(0, e.ModTimeNanos).UTC()
		j.ModTime = &t
	}
	if e.ChangeTimeNanos != 0 {
		t := time.Unix(0, e.ChangeTimeNanos).UTC()
		j.ChangeTime = &t
	}
	return j
}

// typeName is the word for t's type: the first of typeNames whose bit it
// has, or "file" or "irregular".
func typeName(t fs.FileMode) string {
	if t.IsRegular() {
		return "file"
	}
	for _, n := range typeNames {
		if t&n.bit != 0 {
			return n.name
		}
	}
	return "irregular"
}

// typeNames are the types' words, in the order typeName tries them: a
// Windows directory may also be irregular, a character device is a device.
var typeNames = []struct {
	bit  fs.FileMode
	name string
}{
	{fs.ModeDir, "dir"}, {fs.ModeSymlink, "symlink"}, {fs.ModeNamedPipe, "fifo"}, {fs.ModeSocket, "socket"},
	{fs.ModeCharDevice, "chardev"}, {fs.ModeDevice, "blockdev"},
}
