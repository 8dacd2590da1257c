//go:build !linux

package walk

// maxSymlinks is how many symbolic links the BSDs and macOS follow in
// resolving one path (MAXSYMLINKS); a walk under FollowSymlinks follows no
// more from its root.
const maxSymlinks = 32
