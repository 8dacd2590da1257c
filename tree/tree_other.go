//go:build !linux && !darwin

package tree

import (
	"context"
	"errors"
	"fmt"
)

var errUnsupported = fmt.Errorf("tree: not implemented on this system: %w", errors.ErrUnsupported)

// Clone materializes src at dst. Linux and macOS only.
func Clone(src, dst string, opts *Options) (Result, error) { return Result{}, errUnsupported }

// CloneContext materializes src at dst. Linux and macOS only.
func CloneContext(ctx context.Context, src, dst string, opts *Options) (Result, error) {
	return Result{}, errUnsupported
}

// FilesReadOnly clears the write bits of every regular file under dir.
// Linux and macOS only.
func FilesReadOnly(dir string, workers int) (int, error) { return 0, errUnsupported }

// DirsWritable sets the owner's write bit of every directory under dir.
// Linux and macOS only.
func DirsWritable(dir string, workers int) (int, error) { return 0, errUnsupported }
