//go:build !unix

package dutree

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// remove deletes k by path below the root, through os.Root (no link
// followed). Windows and the other systems: not verified.
func (t *Tree) remove(dirNames []string, k *Node) error {
	r, err := os.OpenRoot(strings.Join(append([]string{t.Root.Name}, dirNames...), string(os.PathSeparator)))
	if err != nil {
		return err
	}
	defer r.Close()
	if _, err := r.Lstat(k.Name); err != nil {
		return err
	}
	err = r.RemoveAll(k.Name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
