//go:build unix && !linux

package ignore

import "os"

// openRegular opens name for reading if it is a regular file.
func openRegular(name string) (*os.File, error) { return openChecked(name) }
