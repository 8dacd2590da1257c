package locale

import (
	"bufio"
	"os"
	"strings"
)

// aliasFile is glibc's list of locale aliases on Linux
// (LOCALE_ALIAS_PATH, $(localedir), in intl/Makefile).
const aliasFile = "/usr/share/locale/locale.alias"

// expandAlias is the name locale.alias gives name, compared without
// regard to case, or "" (_nl_expand_alias in intl/localealias.c).
func expandAlias(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 4096), 1<<20)
	for s.Scan() {
		if alias, value, ok := aliasLine(s.Text()); ok && strings.EqualFold(alias, name) {
			return value
		}
	}
	return ""
}

// aliasLine splits one line of locale.alias: an alias and its value,
// separated by white space as the C locale's isspace has it, anything
// after them ignored; a line beginning with '#' is a comment
// (read_alias_file).
func aliasLine(line string) (alias, value string, ok bool) {
	f := strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t\n\v\f\r", r) })
	if len(f) < 2 || strings.HasPrefix(f[0], "#") {
		return "", "", false
	}
	return f[0], f[1], true
}
