package locale

import (
	"io"
	"os"
	"strings"
)

// finder looks up each category's locale as one setlocale call does,
// with the archive opened once.
type finder struct {
	sys     system
	dirs    []string // LOCPATH's directories, then the default; nil without LOCPATH
	arch    *archive
	closer  io.Closer // the archive's file
	triedAr bool
}

// system is where glibc keeps its locales: fixed when glibc is built,
// other places in tests.
type system struct {
	archive, alias, dir string
}

// glibc's on Debian (and most distributions): COMPLOCALEDIR.
var glibc = system{"/usr/lib/locale/locale-archive", aliasFile, "/usr/lib/locale"}

// newFinder is a finder for sys with locpath, LOCPATH's value: when it is
// set, glibc reads no archive, and its directories come first.
func newFinder(sys system, locpath string) *finder {
	f := &finder{sys: sys}
	if locpath != "" {
		for _, d := range strings.Split(locpath, ":") {
			if d != "" {
				f.dirs = append(f.dirs, d)
			}
		}
		f.dirs = append(f.dirs, sys.dir)
	}
	return f
}

func (f *finder) close() {
	if f.closer != nil {
		f.closer.Close()
	}
}

// find loads category c of the locale name as _nl_find_locale
// (locale/findlocale.c) does: the archive under the name, then under its
// alias (without LOCPATH), then the directories. The data is nil for the
// built-in C; ok is false where glibc fails, which fails setlocale.
func (f *finder) find(c category, name string) (d *data, ok bool) {
	if name == "C" || name == "POSIX" {
		return nil, true
	}
	if !validName(name) {
		return nil, false
	}
	alias := expandAlias(f.sys.alias, name)
	dirs := f.dirs
	if dirs == nil {
		if d := f.fromArchive(c, name); d != nil {
			return d, true
		}
		if alias != "" {
			if d := f.fromArchive(c, alias); d != nil {
				return d, true
			}
		}
		dirs = []string{f.sys.dir}
	}
	if alias != "" {
		name = alias
	}
	return f.fromDirs(c, dirs, name)
}

// fromArchive is c's data of name in the archive, or nil.
func (f *finder) fromArchive(c category, name string) *data {
	if !f.triedAr {
		f.triedAr = true
		f.arch, f.closer = openArchive(f.sys.archive)
	}
	if f.arch == nil {
		return nil
	}
	spans, ok := f.arch.find(archiveName(name))
	if !ok {
		return nil
	}
	d, err := readData(c, f.arch.f, spans[c.num].off, spans[c.num].size, c == ctype)
	if err != nil {
		return nil
	}
	return d
}

// fromDirs loads c's file of name from the first of its directories that
// has one glibc loads. A name that gives a codeset must have it there.
func (f *finder) fromDirs(c category, dirs []string, name string) (*data, bool) {
	p := explode(name)
	for _, dir := range candidates(dirs, name) {
		fh, size := openCategory(c, dir+"/"+c.env)
		if fh == nil {
			continue
		}
		d, err := readData(c, fh, 0, size, c == ctype)
		ok := err == nil && (!p.hasCodeset || sameCodeset(p.codeset, d.str(c.codeset)))
		fh.Close()
		if err == nil {
			return d, ok
		}
	}
	return nil, false
}

// openCategory opens c's file at path, or path/SYS_LC_... when path is a
// directory, as LC_MESSAGES is (_nl_load_locale in locale/loadlocale.c),
// and says its size; nil if there is none.
func openCategory(c category, path string) (*os.File, int64) {
	for _, p := range []string{path, path + "/SYS_" + c.env} {
		fh, err := os.Open(p)
		if err != nil {
			return nil, 0
		}
		st, err := fh.Stat()
		switch {
		case err != nil:
		case !st.IsDir():
			return fh, st.Size()
		case p == path:
			fh.Close()
			continue
		}
		fh.Close()
		return nil, 0
	}
	return nil, 0
}
