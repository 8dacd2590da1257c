//go:build !linux && !plan9

package walk

import "syscall"

// maxSymlinks is how many symbolic links the BSDs and macOS follow in
// resolving one path (MAXSYMLINKS); a walk under FollowSymlinks follows no
// more from its root.
const maxSymlinks = 32

var errTooManyLinks error = syscall.ELOOP
