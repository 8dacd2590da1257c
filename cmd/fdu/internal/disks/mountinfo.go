package disks

import (
	"bytes"
	"strings"
)

// Mount is one line of /proc/self/mountinfo: what the list needs of it.
type Mount struct {
	Source, MountPoint, Type string
}

// ParseMountinfo reads the lines of a mountinfo file (proc(5)): a line
// too short to be one is skipped. Its paths have their octal escapes
// (\040 for a space, \012 for a newline) undone, so a name is its bytes:
// whoever shows it escapes it for the terminal.
func ParseMountinfo(data []byte) []Mount {
	var out []Mount
	for line := range bytes.Lines(data) {
		// Split at spaces only: the kernel escapes space, tab, newline and
		// backslash in a name, and leaves the rest raw (a carriage return,
		// a no-break space), which strings.Fields would split a name at.
		f := strings.Split(strings.TrimSuffix(string(line), "\n"), " ")
		// id parent major:minor root mountpoint options [optional...] - type source superoptions
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if len(f) < 5 || sep < 0 || sep+2 >= len(f) {
			continue
		}
		out = append(out, Mount{Source: unescape(f[sep+2]), MountPoint: unescape(f[4]), Type: unescape(f[sep+1])})
	}
	return out
}

// unescape undoes the kernel's \ooo escapes of space, tab, newline and
// backslash.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1:i+4]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := range 3 {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return s[0] <= '3'
}
