package locale

import "strings"

// validName reports whether glibc loads anything for name: not over 255
// bytes, no ".." component, and a slash only in a name that begins with
// one (valid_locale_name in locale/findlocale.c).
func validName(name string) bool {
	switch {
	case len(name) > 255, strings.Contains(name, "/../"), name == "..",
		strings.HasPrefix(name, "../"), strings.HasSuffix(name, "/.."):
		return false
	}
	return !strings.Contains(name, "/") || name[0] == '/'
}

// normalizeCodeset is glibc's canonical spelling of a character set's
// name: its letters lowered and its digits, nothing else, "iso" before a
// name of digits only ("UTF-8" is "utf8", "8859-1" "iso88591";
// _nl_normalize_codeset in intl/l10nflist.c).
func normalizeCodeset(cs string) string {
	var b strings.Builder
	digits := true
	for i := 0; i < len(cs); i++ {
		switch c := cs[i]; {
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
			digits = false
		case 'a' <= c && c <= 'z':
			b.WriteByte(c)
			digits = false
		case '0' <= c && c <= '9':
			b.WriteByte(c)
		}
	}
	if digits {
		return "iso" + b.String()
	}
	return b.String()
}

// archiveName is name as the archive stores it: its codeset normalized
// (_nl_load_locale_from_archive).
func archiveName(name string) string {
	dot := strings.IndexByte(name, '.')
	if dot < 0 || dot+1 == len(name) || name[dot+1] == '@' {
		return name
	}
	end := len(name)
	if at := strings.IndexByte(name[dot+1:], '@'); at >= 0 {
		end = dot + 1 + at
	}
	return name[:dot+1] + normalizeCodeset(name[dot+1:end]) + name[end:]
}

// The parts of a name glibc may drop, one bit each, as intl/loadinfo.h
// numbers them: the order of the bits is the order of the search.
const (
	xpgNormCodeset = 1 << iota
	xpgCodeset
	xpgTerritory
	xpgModifier
)

// parts is a locale name split as language[_territory][.codeset][@modifier].
type parts struct {
	language, territory, codeset, normCodeset, modifier string
	hasCodeset                                          bool // a '.', even with nothing after it
	mask                                                int  // the parts present, xpg bits
}

// explode splits name as _nl_explode_name (intl/explodename.c) does: a
// name beginning with '_', '.' or '@' is all language.
func explode(name string) parts {
	var p parts
	end := strings.IndexAny(name, "_.@")
	if end <= 0 {
		p.language = name
		return p
	}
	p.language, name = name[:end], name[end:]
	if name[0] == '_' {
		n := strings.IndexAny(name[1:], ".@") + 1
		if n == 0 {
			n = len(name)
		}
		p.territory, name = name[1:n], name[n:]
		if p.territory != "" {
			p.mask |= xpgTerritory
		}
	}
	if name != "" && name[0] == '.' {
		n := strings.IndexByte(name[1:], '@') + 1
		if n == 0 {
			n = len(name)
		}
		p.codeset, name, p.hasCodeset = name[1:n], name[n:], true
		if p.codeset != "" {
			p.mask |= xpgCodeset
			if p.normCodeset = normalizeCodeset(p.codeset); p.normCodeset != p.codeset {
				p.mask |= xpgNormCodeset
			}
		}
	}
	if name != "" && name[0] == '@' && len(name) > 1 {
		p.modifier = name[1:]
		p.mask |= xpgModifier
	}
	return p
}

// dirName is the directory name of the parts in mask.
func (p parts) dirName(mask int) string {
	s := p.language
	if mask&xpgTerritory != 0 {
		s += "_" + p.territory
	}
	if mask&xpgCodeset != 0 {
		s += "." + p.codeset
	}
	if mask&xpgNormCodeset != 0 {
		s += "." + p.normCodeset
	}
	if mask&xpgModifier != 0 {
		s += "@" + p.modifier
	}
	return s
}

// candidates are the directories glibc tries for name, in its order:
// from the whole name to the language alone, each shortening in every
// directory of path before the next (_nl_make_l10nflist). A name with
// both a codeset and its normalized form is never tried.
func candidates(path []string, name string) []string {
	p := explode(name)
	var out []string
	for m := p.mask; m >= 0; m-- {
		if m&^p.mask != 0 || m&(xpgCodeset|xpgNormCodeset) == xpgCodeset|xpgNormCodeset {
			continue
		}
		for _, dir := range path {
			out = append(out, dir+"/"+p.dirName(m))
		}
	}
	return out
}

// sameCodeset reports whether the codeset a name asks for is the one its
// data has: glibc compares them through iconv's aliases after upper-casing
// them (__gconv_compare_alias); their normalized forms stand in for the
// aliases, which tell apart the spellings of one name ("UTF-8", "utf8")
// but not other names of a set ("LATIN1").
func sameCodeset(asked, has string) bool {
	return normalizeCodeset(asked) == normalizeCodeset(has)
}
