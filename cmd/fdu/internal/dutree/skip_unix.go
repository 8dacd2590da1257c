//go:build unix

package dutree

import (
	"golang.org/x/sys/unix"
)

// cacheDirSignature begins every cache directory tag, by the Cache
// Directory Tagging Specification (https://bford.info/cachedir/).
const cacheDirSignature = "Signature: 8a477f597d28d172789f06886806bc55"

// cacheDirTagged reports whether the directory name in parent holds a
// CACHEDIR.TAG that begins with the signature. Both are opened relative
// to their directory and never through a link, so a tag that is a
// symbolic link, or a directory swapped for one, tags nothing; a FIFO
// named so is opened without waiting for a writer.
func cacheDirTagged(parent int, name string) bool {
	dir, err := retry(func() (int, error) {
		return unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return false
	}
	defer unix.Close(dir)
	tag, err := retry(func() (int, error) {
		return unix.Openat(dir, "CACHEDIR.TAG", unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return false
	}
	defer unix.Close(tag)
	var st unix.Stat_t
	if unix.Fstat(tag, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	buf := make([]byte, len(cacheDirSignature))
	for got := 0; got < len(buf); {
		n, err := unix.Read(tag, buf[got:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return false
		}
		got += n
	}
	return string(buf) == cacheDirSignature
}
