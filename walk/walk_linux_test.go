package walk

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// mkChain makes levels nested directories named name under root, relative
// to each other so that the tree may go deeper than PATH_MAX, and one file
// in each of the deepest; with leaves, every level also gets an empty
// directory "leaf", so that a walker has a sibling still to open at every
// level on its way down.
func mkChain(t *testing.T, root, name string, levels int, leaves bool) {
	t.Helper()
	var dirs []string
	if leaves {
		dirs = []string{"leaf"}
	}
	fd := testfs.Chain(t, root, name, levels, dirs, nil)
	defer unix.Close(fd)
	f, err := unix.Openat(fd, "bottom.txt", unix.O_CREAT|unix.O_WRONLY, 0o644)
	must(t, err)
	_, err = unix.Write(f, []byte("the end"))
	must(t, err)
	unix.Close(f)
}

// walkAll walks root and returns the deepest depth, the number of
// directories, and the errors met.
func walkAll(t *testing.T, root string, opts *Options) (deepest, dirs int, errs []string) {
	t.Helper()
	var mu sync.Mutex
	o := *opts
	o.OnError = func(e *Error) error {
		mu.Lock()
		errs = append(errs, e.Error())
		mu.Unlock()
		return nil
	}
	must(t, Dirs(context.Background(), root, &o, func(d *Dir) error {
		mu.Lock()
		dirs++
		deepest = max(deepest, d.Depth)
		mu.Unlock()
		return nil
	}))
	return deepest, dirs, errs
}

// TestDeeperThanPathMax walks 3,000 levels of 10-character names: paths of
// 33,000 bytes, eight times PATH_MAX.
func TestDeeperThanPathMax(t *testing.T) {
	root := t.TempDir()
	const levels = 3000
	mkChain(t, root, "ten-chars_", levels, false)
	for _, opts := range []*Options{{}, {Workers: 1}, {MaxOpenDirs: 1, Workers: 3}} {
		deepest, dirs, errs := walkAll(t, root, opts)
		if deepest != levels || dirs != levels+1 || len(errs) > 0 {
			t.Errorf("%+v: deepest %d, %d dirs, errors %q; want %d, %d, none", *opts, deepest, dirs, errs, levels, levels+1)
		}
	}
}

// TestFewDescriptors walks a tree that, walked depth first, leaves a
// sibling to open at every level, with RLIMIT_NOFILE at 256: the walker
// must close and later find again the directories it cannot keep open.
func TestFewDescriptors(t *testing.T) {
	root := t.TempDir()
	const levels = 600
	mkChain(t, root, "a", levels, true)

	testfs.LimitOpenFiles(t, 256)

	for _, workers := range []int{1, 2, 8} {
		deepest, dirs, errs := walkAll(t, root, &Options{Workers: workers})
		if deepest != levels || dirs != 2*levels+1 || len(errs) > 0 {
			t.Errorf("workers %d: deepest %d, %d dirs, errors %q; want %d, %d, none", workers, deepest, dirs, errs, levels, 2*levels+1)
		}
	}
	// The walk leaves no descriptor open.
	before := openFDs(t)
	walkAll(t, root, &Options{Workers: 4, MaxOpenDirs: 3})
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after the walk, %d before", after, before)
	}
}

func openFDs(t *testing.T) int { return testfs.OpenFiles(t) }

// TestOneFileSystem mounts a tmpfs inside the tree.
func TestOneFileSystem(t *testing.T) {
	root := t.TempDir()
	mnt := filepath.Join(root, "mnt")
	must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(t, os.Mkdir(mnt, 0o755))
	testfs.MountTmpfs(t, mnt)
	must(t, os.MkdirAll(filepath.Join(mnt, "inside", "deeper"), 0o755))

	list := func(opts *Options) []string {
		var mu sync.Mutex
		var got []string
		must(t, Dirs(context.Background(), root, opts, func(d *Dir) error {
			mu.Lock()
			got = append(got, strings.TrimPrefix(d.Path, root))
			mu.Unlock()
			return nil
		}))
		slices.Sort(got)
		return got
	}
	var skipped []string // Skipped's calls: the mount point, which no DirFunc call shows
	o := &Options{OneFileSystem: true, Skipped: func(d *Dir) { skipped = append(skipped, strings.TrimPrefix(d.Path, root)) }}
	if got, want := list(o), []string{"", "/a", "/a/b"}; !slices.Equal(got, want) {
		t.Errorf("OneFileSystem: %q, want %q", got, want)
	}
	if want := []string{"/mnt"}; !slices.Equal(skipped, want) {
		t.Errorf("Skipped called for %q, want %q", skipped, want)
	}
	if got, want := list(nil), []string{"", "/a", "/a/b", "/mnt", "/mnt/inside", "/mnt/inside/deeper"}; !slices.Equal(got, want) {
		t.Errorf("crossing: %q, want %q", got, want)
	}
}

// The unprivileged helper walks a tree as nobody, where permissions bite.
const helperEnv = "WALK_TEST_HELPER_ROOT"

type helperResult struct {
	Dirs    []string
	Skipped []string // after their errors, if reported
	Errors  []string
	Depths  []int
	Err     string
}

func TestMain(m *testing.M) {
	if os.Getenv(syscallChildEnv) != "" {
		walkSyscallsChild()
		os.Exit(0)
	}
	if root := os.Getenv(helperEnv); root != "" {
		var r helperResult
		var mu sync.Mutex
		err := Dirs(context.Background(), root, &Options{
			Workers: 2,
			OnError: func(e *Error) error {
				mu.Lock()
				r.Errors = append(r.Errors, e.Path+": "+errors.Unwrap(e.Err).Error())
				r.Depths = append(r.Depths, e.Depth)
				mu.Unlock()
				return nil
			},
			Skipped: func(d *Dir) {
				mu.Lock()
				if !slices.Contains(r.Errors, d.Path+": permission denied") {
					r.Skipped = append(r.Skipped, "before its error: ")
				}
				r.Skipped = append(r.Skipped, strings.TrimPrefix(d.Path, root))
				mu.Unlock()
			},
		}, func(d *Dir) error {
			mu.Lock()
			r.Dirs = append(r.Dirs, strings.TrimPrefix(d.Path, root))
			mu.Unlock()
			return nil
		})
		if err != nil {
			r.Err = err.Error()
		}
		json.NewEncoder(os.Stdout).Encode(r)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestUnreadableGoesOn(t *testing.T) {
	top := testfs.WorldDir(t)
	root := filepath.Join(top, "tree")
	for _, d := range []string{"ok/sub", "closed/inside", "listonly/sub", "z"} {
		must(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "listonly", "file"), []byte("x"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "listonly", "file2"), []byte("x"), 0o644))
	must(t, os.Chmod(filepath.Join(root, "closed"), 0o700))   // nobody may not read it
	must(t, os.Chmod(filepath.Join(root, "listonly"), 0o744)) // nobody may read, not search

	var r helperResult
	// Only stdout holds the result: a test binary built for coverage
	// writes to stderr on exit where nobody cannot write its data.
	res := testfs.RunAsNobodyResult(t, top, helperEnv+"="+root)
	if res.Code != 0 {
		t.Fatalf("the helper run as nobody failed with status %d: %s%s", res.Code, res.Stdout, res.Stderr)
	}
	if err := json.Unmarshal([]byte(res.Stdout), &r); err != nil {
		t.Fatalf("%v in the helper's output %q (stderr %q)", err, res.Stdout, res.Stderr)
	}
	slices.Sort(r.Dirs)
	// closed/ cannot be opened; listonly/ is listed, and each of its files
	// reported, since every stat fails; its subdirectory cannot be opened
	// (no search right).
	wantDirs := []string{"", "/listonly", "/ok", "/ok/sub", "/z"}
	if !slices.Equal(r.Dirs, wantDirs) {
		t.Errorf("walked %q, want %q", r.Dirs, wantDirs)
	}
	slices.Sort(r.Skipped)
	if want := []string{"/closed", "/listonly/sub"}; !slices.Equal(r.Skipped, want) {
		t.Errorf("Skipped called for %q, want %q", r.Skipped, want)
	}
	joined := strings.Join(r.Errors, "\n")
	for _, want := range []string{
		filepath.Join(root, "closed") + ": permission denied",
		filepath.Join(root, "listonly", "file") + ": permission denied",
		filepath.Join(root, "listonly", "file2") + ": permission denied",
		filepath.Join(root, "listonly", "sub") + ": permission denied",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors %q lack %q", r.Errors, want)
		}
	}
	if r.Err != "" {
		t.Errorf("Dirs returned %q; OnError took every error and said go on", r.Err)
	}
}

// TestStatAll checks the fields StatAll fills for links and special files
// against lstat, and against stat under FollowSymlinks.
func TestStatAll(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "target"), []byte("twelve bytes"), 0o644))
	must(t, os.Symlink("target", filepath.Join(root, "link")))
	must(t, os.Symlink("nowhere/at/all", filepath.Join(root, "dangling")))
	must(t, unix.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	for _, follow := range []bool{false, true} {
		var errs []string
		err := Dirs(context.Background(), root, &Options{StatAll: true, FollowSymlinks: follow, OnError: func(e *Error) error {
			errs = append(errs, e.Path)
			return nil
		}}, func(d *Dir) error {
			for _, e := range d.Entries {
				p := filepath.Join(root, e.Name)
				var st unix.Stat_t
				var serr error
				if follow {
					serr = unix.Stat(p, &st)
				} else {
					serr = unix.Lstat(p, &st)
				}
				if serr != nil {
					t.Errorf("follow=%v %s: cannot be stat'ed, yet listed: %+v", follow, e.Name, e)
					continue
				}
				if e.Size != st.Size || e.FileID != st.Ino || e.Allocated != st.Blocks*512 || e.ModTimeNanos != st.Mtim.Nano() {
					t.Errorf("follow=%v %s: %+v, stat says size %d ino %d", follow, e.Name, e, st.Size, st.Ino)
				}
			}
			return nil
		})
		must(t, err)
		// Followed, the dangling link is reported and left out.
		if want := follow; want != slices.Contains(errs, filepath.Join(root, "dangling")) {
			t.Errorf("follow=%v: errors %q", follow, errs)
		}
	}
}

// TestBindMountLoop: a directory mounted again inside itself is reported
// as a loop and not descended, with or without FollowSymlinks.
func TestBindMountLoop(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "b", "again"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "f"), nil, 0o644))
	testfs.BindMount(t, root, filepath.Join(root, "b", "again"))
	for _, follow := range []bool{false, true} {
		var mu sync.Mutex
		var dirs []string
		var loops []string
		err := Dirs(context.Background(), root, &Options{FollowSymlinks: follow, OnError: func(e *Error) error {
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(e, ErrLoop) {
				loops = append(loops, e.Path)
				return nil
			}
			return e
		}}, func(d *Dir) error {
			mu.Lock()
			dirs = append(dirs, strings.TrimPrefix(d.Path, root))
			mu.Unlock()
			return nil
		})
		must(t, err)
		slices.Sort(dirs)
		if want := []string{"", "/b"}; !slices.Equal(dirs, want) || len(loops) != 1 || loops[0] != filepath.Join(root, "b", "again") {
			t.Errorf("follow %v: walked %q, loops %q; want %q and the mount point", follow, dirs, loops, want)
		}
	}
}
