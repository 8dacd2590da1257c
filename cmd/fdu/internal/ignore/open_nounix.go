//go:build !unix

package ignore

import (
	"os"
)

// openRegular opens name for reading if it is a regular file.
func openRegular(name string) (*os.File, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return os.Open(name)
}
