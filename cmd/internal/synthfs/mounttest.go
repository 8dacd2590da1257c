//go:build linux && (amd64 || arm64)

package synthfs

import (
	"os"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

// MountTemp serves a tree of shape s on a new temporary directory until
// the test ends, each directory's opening delayed by delay: a tree slow
// on purpose. It skips the test, saying why, where FUSE cannot be had
// (not root, no /dev/fuse, a failed mount).
func MountTemp(t testing.TB, s treegen.Shape, delay time.Duration) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a FUSE file system needs root")
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skipf("skipping: no FUSE here: %v", err)
	}
	dir := t.TempDir()
	srv, err := Mount(NewFS(New(s), delay), dir)
	if err != nil {
		t.Skipf("skipping: cannot mount a FUSE file system: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Unmount(); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
