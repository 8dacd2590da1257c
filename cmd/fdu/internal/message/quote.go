package message

// Quote quotes a file name for a message as coreutils' quoteaf does
// (shell-escape-always): 'name', a single quote written as '\”, and
// unprintable bytes as $'\ooo' pieces; "name" when the name has a single
// quote and nothing else a shell would need escaped. Which bytes are
// printable is the locale's (SetCharset).
func Quote(s string) string { return quoteArg(s, shellAlways, charset) }

// Quotef quotes s only where a shell would need it, colons included, as
// coreutils' quotef does for the file names du puts before a colon.
func Quotef(s string) string { return quoteArg(s, shellMaybe, charset) }

// QuoteArg quotes s as gnulib's quote() does, for arguments rather than
// file names: ‘s’ in a UTF-8 locale, 's' otherwise, with C's backslash
// escapes inside.
func QuoteArg(s string) string { return quoteArg(s, localeStyle, charset) }
