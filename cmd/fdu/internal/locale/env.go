package locale

// Lookup is os.LookupEnv, or a test's environment.
type Lookup func(key string) (string, bool)

// FromEnv is the LC_CTYPE setlocale(LC_ALL, "") loads in env's
// environment on this machine: C's when that is the locale env names,
// or when glibc would fail to load any of the twelve categories.
func FromEnv(env Lookup) *Ctype { return load(env, glibc) }

func load(env Lookup, sys system) *Ctype {
	names := make([]string, len(categories))
	builtin := true
	for i, c := range categories {
		names[i] = categoryName(env, c.env)
		builtin = builtin && (names[i] == "C" || names[i] == "POSIX")
	}
	if builtin {
		return C // nothing to read
	}
	locpath, _ := env("LOCPATH")
	f := newFinder(sys, locpath)
	defer f.close()
	var ct *data
	for i, c := range categories {
		d, ok := f.find(c, names[i])
		if !ok {
			return C
		}
		if c == ctype {
			ct = d
		}
	}
	if ct == nil {
		return C
	}
	return newCtype(ct)
}

// categoryName is the locale named for the category whose variable is
// cat: LC_ALL, cat, then LANG, the first one set and not empty; C if none
// is.
func categoryName(env Lookup, cat string) string {
	for _, k := range []string{"LC_ALL", cat, "LANG"} {
		if v, _ := env(k); v != "" {
			return v
		}
	}
	return "C"
}
