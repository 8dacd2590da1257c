package walk

import "errors"

// Plan 9 has no symbolic links to follow.
const maxSymlinks = 32

var errTooManyLinks = errors.New("too many levels of symbolic links")
