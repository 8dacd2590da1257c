//go:build !unix

package output

import (
	"io"
	"os"
	"path/filepath"
)

// The file system's part of writing an export, where files have no umask,
// link count or owner to keep: by path (not verified on these systems).

func mayFollow(string) error { return nil }

// writeFile writes path with write, through a temporary file renamed
// over it, or in place for what is not a regular file.
func writeFile(path string, write func(io.Writer) error) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
