package ignore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead: patterns are read, comments and blank lines skipped; a file
// past the limit, however it is cut into lines, is refused.
func TestRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ignore")
	os.WriteFile(p, []byte("# c\n\n*.log\r\n!keep.log\n"), 0o644)
	m, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Match([]string{"a.log"}, false) || m.Match([]string{"keep.log"}, false) {
		t.Errorf("patterns not as written")
	}
	defer func(was int) { maxSize = was }(maxSize)
	maxSize = 1000
	os.WriteFile(p, []byte(strings.Repeat("x\n", 600)), 0o644)
	if _, err := Read(p); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a file past the limit: %v", err)
	}
	if _, err := Read(filepath.Dir(p)); err != errNotRegular {
		t.Errorf("a directory: %v", err)
	}
}
