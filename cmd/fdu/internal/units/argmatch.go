package units

import "github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"

// ArgError is du's complaint about an option's argument that is none of
// its words: the message, and the valid words listed after it on lines
// of their own (gnulib's argmatch_invalid and argmatch_valid).
type ArgError struct{ Msg, Valid string }

func (e *ArgError) Error() string { return e.Msg }

// argmatch is the value of arg among words, whose values vals holds, as
// gnulib's XARGMATCH takes it: a word whole, or the start of words that
// all have one value ("a" is "atime"); what names an option (context,
// "--time") and its synonyms, for the message when none does.
func argmatch(context, arg string, words, vals []string) (string, error) {
	match, ambiguous := -1, false
	for i, w := range words {
		switch {
		case len(w) < len(arg) || w[:len(arg)] != arg:
		case len(w) == len(arg):
			return vals[i], nil
		case match < 0:
			match = i
		case vals[match] != vals[i]:
			ambiguous = true
		}
	}
	if match >= 0 && !ambiguous {
		return vals[match], nil
	}
	msg := message.InvalidArgument(arg, context)
	if ambiguous {
		msg = message.AmbiguousArgument(arg, context)
	}
	return "", &ArgError{msg, message.ValidArguments(words, vals)}
}
