// Package message holds GNU du's messages, word for word as du 9.1
// prints them without a translation, file names and arguments quoted as
// coreutils quotes them in the locale's character set (quote.go,
// SetCharset) and system errors in glibc's words (Strerror): every
// message fdu prints as du would is built here, and nowhere else, so that
// one table is checked against du. Without the program's name, which the
// command puts before each.
//
// What changes here changes fdu's output: a message changes only with
// du's. fdu's own messages, about options du does not have, stay with
// those options. It imports nothing of fdu's.
package message

import (
	"fmt"
	"strings"
)

// CannotAccess is du's message for a file it cannot stat.
func CannotAccess(path string, err error) string {
	return "cannot access " + Quote(path) + ": " + Strerror(err)
}

// CannotAccessDangling is du's message for a dangling symbolic link it
// was told to follow: fts reports it with no reason.
func CannotAccessDangling(path string) string {
	return "cannot access " + Quote(path)
}

// CannotReadDir is du's message for a directory it cannot open or read
// to its end; a nil err gives no reason.
func CannotReadDir(path string, err error) string {
	if err == nil {
		return "cannot read directory " + Quote(path)
	}
	return "cannot read directory " + Quote(path) + ": " + Strerror(err)
}

// Moved is du's message for a directory renamed or removed while it was
// walked: fts's, when ".." no longer leads back to the parent.
func Moved(path string) string {
	return "fts_read failed: " + Quotef(path) + ": No such file or directory"
}

// TimeOutOfRange is du's warning for a time localtime cannot convert,
// printed as its seconds.
func TimeOutOfRange(secs string) string {
	return "time " + QuoteArg(secs) + " is out of range"
}

// FileError is du's message for a file it cannot read, such as
// --exclude-from's.
func FileError(name string, err error) string {
	return Quotef(name) + ": " + Strerror(err)
}

// WriteError is du's message when stdout cannot be written.
func WriteError(err error) string {
	return "write error: " + Strerror(err)
}

// --files0-from's messages.

// DashFromStdin is du's message for a name "-" read from standard input.
const DashFromStdin = "when reading file names from stdin, no file name of '-' allowed"

// EmptyFileName is du's message for an empty file name: the line-th of
// --files0-from's file, when files0 names one.
func EmptyFileName(files0 string, line int) string {
	if files0 == "" {
		return "invalid zero-length file name"
	}
	return fmt.Sprintf("%s:%d: invalid zero-length file name", Quotef(files0), line)
}

// CannotOpen is du's message for a --files0-from file it cannot open.
func CannotOpen(name string, err error) string {
	return "cannot open " + Quote(name) + " for reading: " + Strerror(err)
}

// ReadError is du's message for a --files0-from file it cannot read ("-":
// standard input).
func ReadError(name string, err error) string {
	if name == "-" {
		return "-: read error: " + Strerror(err)
	}
	return Quotef(name) + ": read error: " + Strerror(err)
}

// ExtraOperand is du's message for operands beside --files0-from, which
// FilesWithFiles0 follows on a line of its own.
func ExtraOperand(name string) string { return "extra operand " + QuoteArg(name) }

// FilesWithFiles0 follows ExtraOperand.
const FilesWithFiles0 = "file operands cannot be combined with --files0-from"

// The command line's other messages.

// TryHelp ends a bad command line, naming the program as it was run.
func TryHelp(prog string) string {
	return "Try '" + prog + " --help' for more information."
}

// InvalidArgument is du's message for an option's argument that is not
// one of its words; what is the option ("--time") or what it sets ("time
// style").
func InvalidArgument(arg, what string) string {
	return "invalid argument " + QuoteArg(arg) + " for " + QuoteArg(what)
}

// AmbiguousArgument is du's message for an argument that begins words of
// different meanings (argmatch's).
func AmbiguousArgument(arg, what string) string {
	return "ambiguous argument " + QuoteArg(arg) + " for " + QuoteArg(what)
}

// ValidArguments follows InvalidArgument and AmbiguousArgument: the
// words an option takes, on lines of their own, synonyms (the same
// value in vals, side by side) on one line (gnulib's argmatch_valid).
func ValidArguments(words, vals []string) string {
	var b strings.Builder
	b.WriteString("Valid arguments are:")
	for i, w := range words {
		if i == 0 || vals[i] != vals[i-1] {
			b.WriteString("\n  - " + QuoteArg(w))
		} else {
			b.WriteString(", " + QuoteArg(w))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// InvalidMaxDepth is du's message for a --max-depth that is not a number.
func InvalidMaxDepth(arg string) string { return "invalid maximum depth " + QuoteArg(arg) }

// InvalidSize, SizeSuffix and SizeTooLarge are du's messages (gnulib's
// xstrtol_fatal's) for a size argument arg of the option opt ("-B",
// "--threshold"...): not a size, a bad suffix, too large. Their quotes
// are part of the words and arg is not escaped: xstrtol quotes with
// neither quote() nor quotearg.
func InvalidSize(opt, arg string) string { return "invalid " + opt + " argument '" + arg + "'" }

// SizeSuffix: see InvalidSize.
func SizeSuffix(opt, arg string) string {
	return "invalid suffix in " + opt + " argument '" + arg + "'"
}

// SizeTooLarge: see InvalidSize.
func SizeTooLarge(opt, arg string) string { return opt + " argument '" + arg + "' too large" }

// du's words for options that rule each other out.
const (
	SummarizeAndAll      = "cannot both summarize and show all entries"
	SummarizeIsDepthZero = "warning: summarizing is the same as using --max-depth=0"
	ApparentWithInodes   = "warning: options --apparent-size and -b are ineffective with --inodes"
)

// SummarizeConflicts is du's message for -s with a --max-depth above 0.
func SummarizeConflicts(depth int) string {
	return fmt.Sprintf("warning: summarizing conflicts with --max-depth=%d", depth)
}

// getopt's messages, as glibc words them.

// InvalidOption is getopt's message for an unknown short option c.
func InvalidOption(c string) string { return "invalid option -- '" + c + "'" }

// UnrecognizedOption is getopt's message for an unknown long option, as
// typed, dashes included.
func UnrecognizedOption(given string) string { return "unrecognized option '" + given + "'" }

// ShortNeedsArgument is getopt's message for a short option c given
// without its argument.
func ShortNeedsArgument(c string) string { return "option requires an argument -- '" + c + "'" }

// LongNeedsArgument is getopt's message for a long option, dashes
// included, given without its argument.
func LongNeedsArgument(opt string) string { return "option '" + opt + "' requires an argument" }

// Ambiguous is getopt's message for a long option's prefix, as typed
// after its dashes, that several options begin with.
func Ambiguous(given string, options []string) string {
	var b strings.Builder
	b.WriteString("option '--" + given + "' is ambiguous; possibilities:")
	for _, o := range options {
		b.WriteString(" '--" + o + "'")
	}
	return b.String()
}
