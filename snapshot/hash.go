package snapshot

import (
	"crypto/sha256"
	"io"
)

// hashAt returns the SHA-256 of the regular file name in d, whose stat was
// x, or "" when the file changed while it was read (it is then as racy as
// before) or could not be read: a hash is kept only when the file was the
// one stat'ed, unchanged, from before the read to after it.
func hashAt(d dirFile, x *Entry) string {
	f, err := openFileAt(d, x.Name)
	if err != nil {
		return ""
	}
	defer f.Close()
	before, err := statFile(f)
	if err != nil || !sameStat(&before, x) {
		return ""
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	after, err := statFile(f)
	if err != nil || !sameStat(&after, x) {
		return ""
	}
	return string(h.Sum(nil))
}

// sameStat reports whether a and b are one file with the same contents'
// size and times.
func sameStat(a, b *Entry) bool {
	return a.FileID == b.FileID && a.Size == b.Size && a.ModTime == b.ModTime && a.ChangeTime == b.ChangeTime
}
