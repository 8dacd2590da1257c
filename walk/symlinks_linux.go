package walk

import "syscall"

// maxSymlinks is how many symbolic links Linux follows in resolving one
// path (MAXSYMLINKS); a walk under FollowSymlinks follows no more from its
// root, as a tool that opens whole paths could not.
const maxSymlinks = 40

var errTooManyLinks error = syscall.ELOOP
