// Package locale finds the locale GNU du runs in, as glibc 2.36's
// setlocale(LC_ALL, "") finds it, and reads what fdu needs of it: the
// character set of its LC_CTYPE and which characters that calls
// printable (iswprint), so that names are quoted as du quotes them.
//
// setlocale takes each category's name from LC_ALL, the category's own
// variable (LC_CTYPE...) or LANG, in that order (locale/findlocale.c,
// _nl_find_locale). "C" and "POSIX" are built in; every other name is
// looked up in /usr/lib/locale/locale-archive (unless LOCPATH is set),
// then under locale.alias's name for it, then in the directories
// /usr/lib/locale/NAME/LC_CTYPE..., NAME shortened as glibc shortens it
// (intl/l10nflist.c). C.UTF-8 is no exception: glibc 2.35 and later ship
// it as locale data, not built in; Debian installs it as
// /usr/lib/locale/C.utf8/. If any of the twelve categories cannot be
// loaded, setlocale changes nothing and the program runs in C
// (locale/setlocale.c): so does fdu.
//
// Printability is read from the locale's own LC_CTYPE tables, not from
// Go's unicode package: glibc 2.36 follows Unicode 14 (Go 1.26 has 15),
// and its "print" class differs from unicode.IsPrint by design (format
// characters, spaces and private use are printable to glibc). The data
// du uses is the only table that agrees with du on every machine.
//
// It imports nothing of fdu's.
package locale
