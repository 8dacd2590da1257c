//go:build !linux && !darwin

package tree

import (
	"errors"
	"fmt"
)

var errUnsupported = fmt.Errorf("tree: not implemented on this system: %w", errors.ErrUnsupported)

// Clone materializes src at dst. Linux only for now.
func Clone(src, dst string, opts *Options) (Result, error) { return Result{}, errUnsupported }

// FilesReadOnly clears the write bits of every regular file under dir.
// Linux only for now.
func FilesReadOnly(dir string, workers int) (int, error) { return 0, errUnsupported }

// DirsWritable sets the owner's write bit of every directory under dir.
// Linux only for now.
func DirsWritable(dir string, workers int) (int, error) { return 0, errUnsupported }
