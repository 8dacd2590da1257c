//go:build !unix

package message

import (
	"errors"
	"os"
)

// Strerror is the system's message for err, without the path an
// *os.PathError adds.
func Strerror(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
