package snapshot

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile takes a snapshot of dir (as Take does) into file: it writes a
// temporary file beside it and renames it into place once it is whole and
// synced, so file is either the old snapshot or the new one, never a part.
// A snapshot that is whole but incomplete (ErrIncomplete) is kept too; on
// any other error the temporary file is removed and file is untouched. A
// file inside dir, and its temporary file, are left out of the snapshot.
func WriteFile(ctx context.Context, dir, file string, opts *Options) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-*")
	if err != nil {
		return err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Exclude = append(append([]string(nil), o.Exclude...), selfPatterns(dir, file, tmp.Name())...)
	w := bufio.NewWriterSize(tmp, 256<<10)
	err = Take(ctx, dir, w, &o)
	if err == nil || errors.Is(err, ErrIncomplete) {
		err = errors.Join(err, finish(w, tmp, file))
	}
	if err != nil && !errors.Is(err, ErrIncomplete) {
		tmp.Close()
		os.Remove(tmp.Name())
	}
	return err
}

// finish flushes, syncs and closes the temporary file and renames it to
// file.
func finish(w *bufio.Writer, tmp *os.File, file string) error {
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// selfPatterns are exclude patterns for the snapshot's own files when
// they are inside dir.
func selfPatterns(dir string, files ...string) []string {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(absDir, abs)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		out = append(out, "/"+escapePattern(filepath.ToSlash(rel)))
	}
	return out
}

// escapePattern makes s a pattern that matches s alone.
func escapePattern(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
