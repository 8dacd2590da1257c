package dutree

import "unsafe"

// unsafeString is b as a string without a copy: b is a directory's names,
// never written again.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
