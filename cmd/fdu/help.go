package main

import (
	"io"
	"regexp"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/internal/complete"
)

const usageText = `Usage: fdu [OPTION]... [FILE]...
  or:  fdu [OPTION]... --files0-from=F
Summarize device usage of the set of FILEs, recursively for directories.
Walks the tree on several threads; prints what GNU du prints.

Mandatory arguments to long options are mandatory for short options too.
  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -D, --dereference-args  dereference only symlinks that are listed on the
                          command line
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
      --files0-from=F   summarize device usage of the
                          NUL-terminated file names specified in file F;
                          if F is -, then read names from standard input
  -H                    equivalent to --dereference-args (-D)
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --inodes          list inode usage information instead of block usage
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
      --si              like -h, but use powers of 1000 not 1024
  -s, --summarize       display only a total for each argument
  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,
                          or entries greater than SIZE if negative
      --time            show time of the last modification of any file in the
                          directory, or any of its subdirectories
      --time=WORD       show time as WORD instead of modification time:
                          atime, access, use, ctime or status
      --time-style=STYLE  show times using STYLE, which can be:
                            full-iso, long-iso, iso, or +FORMAT;
                            FORMAT is interpreted like in 'date'
  -X, --exclude-from=FILE  exclude files that match any pattern in FILE
      --exclude=PATTERN    exclude files that match PATTERN
  -x, --one-file-system    skip directories on different file systems
  -j, --threads=N       walk with N threads (default: the number of CPUs)

Views beyond du (instead of du's lines):
      --tree            a tree of the largest entries, with bars and
                          percentages, fitted to the terminal's width
      --depth=N         levels the tree shows (default 3)
      --top=N           entries per level the tree shows (default 10)
      --json            the whole tree as JSON, for scripts
      --largest=N       the N largest files
      --progress=WHEN   a progress line on stderr after a second of scanning:
                          auto (only on a terminal), always or never

Interactive (ncdu's keys; ? lists them):
  -i, --interactive     scan FILE (a directory) and browse it: sort, enter,
                          delete, rescan; -x, --exclude, -L and the units
                          apply
  -o, --output-file=F   write the scan to F (- for stdout) in ncdu's JSON
                          export format, readable by ncdu -f and gdu -f
  -f, --input-file=F    browse a scan saved by fdu -o, ncdu -o or gdu -o
                          (- for stdin); with -o, convert it
      --read-only       browse without deletion, rescans or the shell
      --no-color        no colours (also when NO_COLOR is set)
      --no-mouse        leave the mouse to the terminal (by default a click
                          selects, a double click opens, the wheel scrolls)
      --confirm-quit    ask before quitting the browser
      --max-age=AGE     show only files modified within AGE (7d, 2w, 1y2mo;
                          units s, m, h, d, w, mo, y)
      --min-age=AGE     show only files modified at least AGE ago
      --since=WHEN      show only files modified at or after WHEN
                          (YYYY-MM-DD, its whole day, or an RFC 3339 time)
      --until=WHEN      show only files modified at or before WHEN
  -e, --extended        keep each entry's owner, group and mode (shown with
                          o, exported and read as ncdu -e does)
      --exclude-caches  leave out directories holding a CACHEDIR.TAG
      --exclude-kernfs  leave out kernel file systems (proc, sysfs...)
      --ignore-from=FILE  leave out what FILE's gitignore patterns match
      --disks           list the mounted disks and browse the one chosen
      --help     display this help and exit
      --version  output version information and exit

Display values are in units of the first available SIZE from --block-size,
and the DU_BLOCK_SIZE, BLOCK_SIZE and BLOCKSIZE environment variables.
Otherwise, units default to 1024 bytes (or 512 if POSIXLY_CORRECT is set).
`

// helpOption is one option as --help lists it, with its description's
// lines joined.
type helpOption struct {
	short, long, desc string
}

// helpLine is an option's first line in --help: "  -a, --all  text",
// "      --si  text", "  -H  text", "      --time=WORD  text".
var helpLine = regexp.MustCompile(`^ {2,6}(?:-([^-\s])(?:, )?)?(?:--([a-z0-9-]+)(?:=[A-Z]+)?)?\s+(\S.*)$`)

// helpOptions is the options that text (usageText) lists, in its order.
// A description goes on in the lines indented past the option column.
func helpOptions(text string) []helpOption {
	var opts []helpOption
	for _, line := range strings.Split(text, "\n") {
		m := helpLine.FindStringSubmatch(line)
		switch {
		case m != nil && (m[1] != "" || m[2] != ""):
			opts = append(opts, helpOption{short: m[1], long: m[2], desc: m[3]})
		case len(opts) > 0 && strings.HasPrefix(line, strings.Repeat(" ", 10)):
			opts[len(opts)-1].desc += " " + strings.TrimSpace(line)
		default:
			if len(opts) > 0 {
				opts[len(opts)-1].desc = strings.Join(strings.Fields(opts[len(opts)-1].desc), " ")
			}
		}
	}
	return opts
}

// completionShell is the shell named by --completion=SHELL when it is
// fdu's only argument: a hidden option, outside getopt's table so that no
// abbreviation of du's reaches it.
func completionShell(args []string) (string, bool) {
	if len(args) != 1 {
		return "", false
	}
	return strings.CutPrefix(args[0], "--completion=")
}

// completion writes fdu's completion script for shell.
func (c *command) completion(shell string) int {
	s, err := complete.Script(completionProgram(), shell)
	if err != nil {
		c.warn("%v", err)
		return 1
	}
	io.WriteString(c.out, s)
	return 0
}

// completionProgram is fdu's options as parse defines them, described as
// --help describes them.
func completionProgram() *complete.Program {
	flags := complete.FromPFlag(newFlags(&config{}).fl)
	desc := map[string]string{}
	for _, o := range helpOptions(usageText) {
		key := o.long
		if key == "" {
			key = o.short
		}
		if _, ok := desc[key]; !ok { // --time's first line, not --time=WORD's
			desc[key] = o.desc
		}
	}
	complete.WithDesc(flags, desc)
	complete.WithChoices(flags, "time", "atime", "access", "use", "ctime", "status")
	complete.WithChoices(flags, "time-style", "full-iso", "long-iso", "iso")
	complete.WithChoices(flags, "progress", "auto", "always", "never")
	complete.WithFiles(flags, "exclude-from", "files0-from", "output-file", "input-file", "ignore-from")
	return &complete.Program{Command: complete.Command{Name: "fdu", Flags: flags, Operands: complete.FileOperands}}
}
