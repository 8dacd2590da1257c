package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"github.com/pbednarcik/flexreaddir/walk"
	"golang.org/x/sys/unix"
)

// TestTakeRecordsWhatStatSays: the set-id and sticky bits each as
// fs.FileMode's, a link's target past the first read's 256 bytes, the
// kernel clock's step in the header.
func TestTakeRecordsWhatStatSays(t *testing.T) {
	dir := t.TempDir()
	build(t, dir, "suid", "sgid", "sticky/")
	modes := map[string]fs.FileMode{"suid": fs.ModeSetuid | 0o755, "sgid": fs.ModeSetgid | 0o750, "sticky": fs.ModeSticky | 0o777}
	for name, m := range modes {
		if err := os.Chmod(filepath.Join(dir, name), m); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("t", 300)
	if err := os.Symlink(long, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	settle()
	snap := take(t, dir, nil)
	rd, err := NewReader(strings.NewReader(string(snap)))
	if err != nil {
		t.Fatal(err)
	}
	var ts unix.Timespec
	if err := unix.ClockGetres(unix.CLOCK_REALTIME_COARSE, &ts); err != nil {
		t.Fatal(err)
	}
	if got := rd.Header().ClockStep; got != time.Duration(ts.Nano()) {
		t.Errorf("clock step %v, the coarse clock's resolution %v", got, time.Duration(ts.Nano()))
	}
	root, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range root.Entries {
		if want, ok := modes[e.Name]; ok && e.Perm != want {
			t.Errorf("%s: %v, want %v", e.Name, e.Perm, want)
		}
		if e.Name == "link" && (e.Target != long || e.Size != int64(len(long))) {
			t.Errorf("link: a target of %d bytes, size %d; want %d", len(e.Target), e.Size, len(long))
		}
	}
}

// TestTakeUnknownFileSystem: a file system nothing is known of (FUSE
// here, as sshfs or rclone) is recorded with its type, times trusted to
// 2 s, directories listed every time and no moves found by inode number;
// its files are all in the snapshot, as the server lists them.
func TestTakeUnknownFileSystem(t *testing.T) {
	names := []string{"a", "bb", "ccc"}
	dir := testfs.PagedDir(t, names, 2)
	rd, err := NewReader(strings.NewReader(string(take(t, dir, nil))))
	if err != nil {
		t.Fatal(err)
	}
	root, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	want := Device{ID: root.Device.ID, FSType: 0x65735546, Granularity: 2 * time.Second}
	if root.Device != want {
		t.Errorf("FUSE recorded as %+v, want %+v", root.Device, want)
	}
	var got []string
	for _, e := range root.Entries {
		got = append(got, e.Name)
	}
	equalLines(t, "entries", got, names)
}

// TestTakeEntryStatFails: an entry listed whose stat then fails, not as
// removed (EIO from a file server), is reported to OnError with its path
// and depth, one below its directory's, and recorded as unread; the rest
// are recorded, and Take returns the error.
func TestTakeEntryStatFails(t *testing.T) {
	dir := testfs.PagedDirFailing(t, []string{"a", "bb", "ccc"}, 2, map[string]syscall.Errno{"bb": syscall.EIO})
	var errs []error
	var buf bytes.Buffer
	err := Take(context.Background(), dir, &buf, &Options{OnError: func(err error) error {
		errs = append(errs, err)
		return nil
	}})
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("Take: %v, want the first entry not read", err)
	}
	var we *walk.Error
	if len(errs) != 1 || !errors.As(errs[0], &we) || we.Path != filepath.Join(dir, "bb") || we.Depth != 1 || !errors.Is(we.Err, syscall.EIO) {
		t.Fatalf("errors %v, want one for bb at depth 1", errs)
	}
	rd, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	root, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range root.Entries {
		got = append(got, fmt.Sprintf("%s unread %v", e.Name, e.Unread))
	}
	equalLines(t, "entries", got, []string{"a unread false", "bb unread true", "ccc unread false"})
}
