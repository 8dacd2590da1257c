package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/frd"
)

// winTempDir is t.TempDir, but under Wine, where os.RemoveAll fails, a
// cleanup that fails is not a test failure.
func winTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "walk-test-")
	must(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// TestWindowsDirInfo walks a small tree: every Dir.Info comes from the
// open handle, with the volume serial number as Device and the file index
// as FileID, one id per directory.
func TestWindowsDirInfo(t *testing.T) {
	root := winTempDir(t)
	must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(t, os.Mkdir(filepath.Join(root, "c"), 0o755))
	var mu sync.Mutex
	infos := map[string]frd.Entry{}
	must(t, Dirs(context.Background(), root, nil, func(d *Dir) error {
		mu.Lock()
		infos[d.Path] = d.Info
		mu.Unlock()
		return nil
	}))
	if len(infos) != 4 {
		t.Fatalf("%d directories walked, want 4: %v", len(infos), infos)
	}
	ids := map[[2]uint64]string{}
	for p, info := range infos {
		if info.FileID == 0 || info.Device == 0 || info.Links == 0 || info.Type != fs.ModeDir {
			t.Errorf("%s: Info %+v, want a directory with FileID, Device and Links", p, info)
		}
		fi, err := os.Stat(p)
		must(t, err)
		if info.ModTimeNanos != fi.ModTime().UnixNano() {
			t.Errorf("%s: ModTimeNanos %d, os.Stat %d", p, info.ModTimeNanos, fi.ModTime().UnixNano())
		}
		k := [2]uint64{info.Device, info.FileID}
		if q, ok := ids[k]; ok {
			t.Errorf("%s and %s: one id %v", p, q, k)
		}
		ids[k] = p
	}
}

// TestWindowsLoop follows a directory symbolic link back to the root: it
// is reported as ErrLoop, not descended, and the walk ends. Under StatAll
// the link carries the root's metadata.
func TestWindowsLoop(t *testing.T) {
	root := winTempDir(t)
	sub := filepath.Join(root, "sub")
	must(t, os.Mkdir(sub, 0o755))
	link := filepath.Join(sub, "up")
	// Wine 8's CreateSymbolicLinkW is a stub that reports success and makes
	// nothing, and Wine has no mklink /J: check that a link was made.
	err := os.Symlink(root, link)
	if fi, lerr := os.Lstat(link); err != nil || lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Skipf("cannot make a directory symbolic link here (Symlink: %v, Lstat: %v); junctions cannot be made under Wine either, so the loop is not tested", err, lerr)
	}
	if fi, err := os.Stat(link); err != nil || !fi.IsDir() {
		t.Skipf("the symbolic link does not lead to the directory (%v)", err)
	}
	for _, statAll := range []bool{false, true} {
		t.Run(fmt.Sprint("StatAll=", statAll), func(t *testing.T) {
			loops, dirs, linkInfo := walkLoop(t, root, statAll)
			if !slices.Equal(loops, []string{link}) {
				t.Errorf("loops reported at %q, want %q", loops, link)
			}
			slices.Sort(dirs)
			if want := []string{root, sub}; !slices.Equal(dirs, want) {
				t.Errorf("walked %q, want %q", dirs, want)
			}
			if statAll && (linkInfo.Type != fs.ModeSymlink|fs.ModeDir || linkInfo.FileID == 0) {
				t.Errorf("the link under StatAll: %+v, want a link to a directory with the root's FileID", linkInfo)
			}
		})
	}
}

// walkLoop walks root following links, with one worker and a deadline,
// and returns the paths reported as loops, the directories walked, and the
// entry of sub/up.
func walkLoop(t *testing.T, root string, statAll bool) (loops, dirs []string, up frd.Entry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var rootID uint64
	err := Dirs(ctx, root, &Options{
		Workers: 1, FollowSymlinks: true, StatAll: statAll,
		OnError: func(e *Error) error {
			if errors.Is(e, ErrLoop) {
				loops = append(loops, e.Path)
				return nil
			}
			return e
		},
	}, func(d *Dir) error {
		dirs = append(dirs, d.Path)
		if d.Depth == 0 {
			rootID = d.Info.FileID
		}
		for _, e := range d.Entries {
			if e.Name == "up" {
				up = e
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the walk: %v", err)
	}
	if statAll && up.FileID != rootID {
		t.Errorf("the link's FileID %#x, the root's %#x", up.FileID, rootID)
	}
	return loops, dirs, up
}
