package main

import (
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// pflag takes long options only whole; getopt_long, which du uses, takes
// any unambiguous prefix (--sum, --max=1, --app). expandLongOptions
// rewrites each abbreviation to its option before pflag parses, and words
// an ambiguous or unknown one as glibc's getopt does.

// duLongOptions are du's long options in the order of du.c's table, which
// is the order getopt lists the possibilities of an ambiguous prefix in.
var duLongOptions = []string{
	"all", "apparent-size", "block-size", "bytes", "count-links", "dereference", "dereference-args",
	"exclude", "exclude-from", "files0-from", "human-readable", "inodes", "si", "max-depth", "null",
	"no-dereference", "one-file-system", "separate-dirs", "summarize", "total", "threshold", "time",
	"time-style", "help", "version",
}

// fduLongOptions are fdu's own, matched only when no du option matches, so
// that each of du's abbreviations means what it means to du (--th is
// --threshold, not also --threads).
var fduLongOptions = []string{"threads", "tree", "json", "largest", "depth", "top", "progress",
	"interactive", "output-file", "input-file", "read-only", "no-color", "no-mouse", "confirm-quit",
	"max-age", "min-age", "since", "until",
	"extended", "exclude-caches", "exclude-kernfs", "ignore-from", "disks"}

// expandLongOptions returns args with every long option spelled whole.
func expandLongOptions(fl *pflag.FlagSet, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	valueNext := false // the previous option takes this argument as its value
	for i, a := range args {
		switch {
		case valueNext:
			valueNext = false
		case a == "--":
			return append(out, args[i:]...), nil
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			full, err := resolveLong(name, a[2:])
			if err != nil {
				return nil, err
			}
			if hasValue {
				a = "--" + full + "=" + value
			} else {
				a = "--" + full
				valueNext = takesValue(fl, full) && fl.Lookup(full).NoOptDefVal == ""
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			valueNext = shortWantsNext(fl, a[1:])
		}
		out = append(out, a)
	}
	return out, nil
}

// resolveLong is the option the prefix name stands for; given is the
// argument as typed after its dashes, as getopt's messages quote it.
func resolveLong(name, given string) (string, error) {
	for _, set := range [][]string{duLongOptions, fduLongOptions} {
		var matches []string
		for _, o := range set {
			if o == name {
				return o, nil
			}
			if strings.HasPrefix(o, name) {
				matches = append(matches, o)
			}
		}
		switch len(matches) {
		case 0:
			continue
		case 1:
			return matches[0], nil
		}
		return "", errors.New(message.Ambiguous(given, matches))
	}
	return "", errors.New(message.UnrecognizedOption("--" + given))
}

func takesValue(fl *pflag.FlagSet, name string) bool {
	f := fl.Lookup(name)
	return f != nil && f.Value.Type() != "bool"
}

// shortWantsNext reports whether a cluster of short options (without its
// dash) ends with one that takes the next argument as its value.
func shortWantsNext(fl *pflag.FlagSet, cluster string) bool {
	for i := 0; i < len(cluster); i++ {
		f := fl.ShorthandLookup(cluster[i : i+1])
		if f == nil {
			return false
		}
		if f.Value.Type() != "bool" && f.NoOptDefVal == "" {
			return i == len(cluster)-1 // else the rest is its value
		}
	}
	return false
}

// gnuFlagError words a flag-parsing error as getopt does.
func gnuFlagError(err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		// unknown shorthand flag: 'q' in -q
		if i := strings.Index(msg, "'"); i >= 0 && i+2 < len(msg) {
			return message.InvalidOption(msg[i+1 : i+2])
		}
	case strings.HasPrefix(msg, "unknown flag: "):
		return message.UnrecognizedOption(strings.TrimPrefix(msg, "unknown flag: "))
	case strings.Contains(msg, "flag needs an argument"):
		if i := strings.Index(msg, "'"); i >= 0 && i+2 < len(msg) && !strings.Contains(msg, "--") {
			return message.ShortNeedsArgument(msg[i+1 : i+2])
		}
		if i := strings.Index(msg, "--"); i >= 0 {
			return message.LongNeedsArgument(strings.TrimSpace(msg[i:]))
		}
	}
	return msg
}
