package walk

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pbednarcik/flexreaddir/frd"
)

// WalkDir walks the tree rooted at root, calling fn for each file or
// directory in it, root included, with filepath.WalkDir's signature and
// meanings: the path passed is root joined with the names below it; fn is
// called for a directory before its contents; fs.SkipDir from a directory
// skips it, from a file skips the rest of its directory; fs.SkipAll ends
// the walk and WalkDir returns nil; any other error ends the walk and is
// returned. Symbolic links are reported and not followed.
//
// It is Walk with the default Options. The differences from
// filepath.WalkDir:
//
//   - fn is called from several goroutines at once, one per directory being
//     listed: guard what it shares. Within one directory the calls are
//     sequential.
//   - The order is not lexical: a directory's entries come in the kernel's
//     order (sorted under Options.Sorted), and subtrees are walked at once.
//     Every directory still comes before its contents.
//   - An entry whose stat fails (on Linux, a regular file in a directory
//     that may be read but not searched) is reported by a call with its own
//     path and the error; filepath.WalkDir reports only directories.
//   - Each fs.DirEntry also has a method Entry() frd.Entry with the
//     metadata the listing gave; its Info calls os.Lstat, as os.DirEntry's
//     does.
func WalkDir(root string, fn fs.WalkDirFunc) error {
	return Walk(nil, root, fn)
}

// Walk is WalkDir with options, shaped as fastwalk.Walk is. Under
// opts.FollowSymlinks a root that is a symbolic link to a directory is
// walked; Post and OnError are replaced by the adapter's own, and Reuse
// is ignored.
func Walk(opts *Options, root string, fn fs.WalkDirFunc) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Reuse = false // fs.DirEntry values are often kept
	stat := os.Lstat
	if o.FollowSymlinks {
		stat = os.Stat
	}
	info, err := stat(root)
	if err != nil {
		err = fn(root, nil, err)
	} else {
		err = fn(root, fs.FileInfoToDirEntry(info), nil)
		if err == nil && info.IsDir() {
			o.Post = nil
			o.OnError = func(e *Error) error {
				d := DirEntry{e: frd.Entry{Name: filepath.Base(e.Path), Type: fs.ModeDir}, path: e.Path}
				if e.Path == root {
					d = DirEntry{e: frd.Entry{Name: filepath.Base(root), Type: info.Mode().Type()}, path: root}
				}
				switch err := fn(e.Path, d, e.Err); err {
				case nil, fs.SkipDir:
					return nil
				default:
					return err
				}
			}
			err = Dirs(context.Background(), root, &o, func(d *Dir) error { return adapt(d, fn) })
		}
	}
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

// adapt calls fn for each entry of d, leaving in d.Entries the directories
// to descend into.
func adapt(d *Dir, fn fs.WalkDirFunc) error {
	keep := d.Entries[:0]
	for _, e := range d.Entries {
		path := joinPath(d.Path, e.Name)
		err := fn(path, DirEntry{e: e, path: path}, nil)
		switch {
		case err == nil:
			keep = append(keep, e)
		case err == fs.SkipDir:
			if !e.Type.IsDir() {
				d.Entries = keep // a file's SkipDir skips the rest of the directory
				return nil
			}
			// a directory's skips it alone
		default:
			return err
		}
	}
	d.Entries = keep
	return nil
}

// DirEntry is the fs.DirEntry the WalkDir adapter passes: an frd.Entry and
// its path.
type DirEntry struct {
	e    frd.Entry
	path string
}

func (d DirEntry) Name() string      { return d.e.Name }
func (d DirEntry) IsDir() bool       { return d.e.Type.IsDir() }
func (d DirEntry) Type() fs.FileMode { return d.e.Type }

// Info returns os.Lstat of the entry's path, as os.DirEntry's Info does.
func (d DirEntry) Info() (fs.FileInfo, error) { return os.Lstat(d.path) }

// Entry returns the entry's metadata from the listing, without a stat.
func (d DirEntry) Entry() frd.Entry { return d.e }

func (d DirEntry) String() string { return fs.FormatDirEntry(d) }
