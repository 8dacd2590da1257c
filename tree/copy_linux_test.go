package tree

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
	"golang.org/x/sys/unix"
)

// pattern is n bytes that differ at every offset of 4 KiB, so that a
// chunk copied to the wrong place, or twice, shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i/4096 + i%251)
	}
	return b
}

// sameFiles fails the test unless each of names has the same bytes in
// src and dst.
func sameFiles(t *testing.T, src, dst string, names ...string) {
	t.Helper()
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(src, name))
		must(t, err)
		got, err := os.ReadFile(filepath.Join(dst, name))
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes copied, differing from the source's %d", name, len(got), len(want))
		}
	}
}

// TestCopyLargerThanAChunk copies a file of two chunks of copy_file_range
// and a few bytes more: the second chunk goes at the first's end.
func TestCopyLargerThanAChunk(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "big"), pattern(copyChunk+4099), 0o644))
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	sameFiles(t, src, dst, "big")
}

// TestCopyAcrossFileSystemTypes copies from a tmpfs to the test's own file
// system, where copy_file_range answers EXDEV before it copies anything:
// the files are read and written instead, several buffers of them, a
// file with a hole, and an empty one.
func TestCopyAcrossFileSystemTypes(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	testfs.MountTmpfs(t, src)
	must(t, os.WriteFile(filepath.Join(src, "buffers"), pattern(3*128<<10+7), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "empty"), nil, 0o644))
	f, err := os.Create(filepath.Join(src, "holes"))
	must(t, err)
	_, err = f.WriteAt(pattern(5000), 1<<20)
	must(t, err)
	must(t, f.Truncate(3<<20))
	must(t, f.Close())
	dst := filepath.Join(t.TempDir(), "dst")
	_, err = Clone(src, dst, &Options{Method: Copy})
	must(t, err)
	sameFiles(t, src, dst, "buffers", "empty", "holes")
}

// TestCopySizeZeroWithData copies a file whose size says 0 but which
// holds more than its first read of 512 bytes, as /proc's do (/proc/crypto
// bound onto a file of the source), and an empty file: each to its end.
// /proc/crypto's counts change as the kernel uses its ciphers: the copy
// must equal a read of it made just before, in one of five tries.
func TestCopySizeZeroWithData(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "crypto"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(src, "empty"), nil, 0o644))
	testfs.BindMount(t, "/proc/crypto", filepath.Join(src, "crypto"))
	var got, want []byte
	for try := range 5 {
		var err error
		want, err = os.ReadFile("/proc/crypto")
		if err != nil || len(want) <= 512 {
			t.Skipf("skipping: /proc/crypto holds %d bytes (%v), want more than 512", len(want), err)
		}
		dst := filepath.Join(t.TempDir(), fmt.Sprint("dst", try))
		_, err = Clone(src, dst, &Options{Method: Copy})
		must(t, err)
		if fi, err := os.Stat(filepath.Join(dst, "empty")); err != nil || fi.Size() != 0 {
			t.Errorf("empty: %v, %v", fi, err)
		}
		if got, _ = os.ReadFile(filepath.Join(dst, "crypto")); bytes.Equal(got, want) {
			return
		}
	}
	t.Errorf("crypto: %d bytes copied, want /proc/crypto's %d", len(got), len(want))
}

// TestCopyKeepsTimesAfterTheCopy: a source file whose times are changed
// while its data is copied (its ctime with them, its mode not) gives the
// copy its times after the copy, not those of the stat before it.
func TestCopyKeepsTimesAfterTheCopy(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	f := filepath.Join(src, "f")
	must(t, os.WriteFile(f, []byte("data"), 0o644))
	later := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	testHookChunk = func(int64) { must(t, os.Chtimes(f, later, later)) }
	defer func() { testHookChunk = nil }()
	dst := filepath.Join(t.TempDir(), "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	must(t, err)
	fi, err := os.Stat(filepath.Join(dst, "f"))
	must(t, err)
	if !fi.ModTime().Equal(later) {
		t.Errorf("the copy's mtime is %v, want the source's after the copy, %v", fi.ModTime(), later)
	}
}

// TestCopySourceGrowingWhileCopied: a source file that grows once it is
// open and stat'ed, before a byte is read, is copied to its size at the
// stat: by copy_file_range, whose last chunk asks for what is left of
// that size, and, from a tmpfs into the test's file system, by reads and
// writes, whose last buffer does.
func TestCopySourceGrowingWhileCopied(t *testing.T) {
	for _, c := range []struct {
		name  string
		size  int
		tmpfs bool
	}{
		{"copy_file_range", copyChunk + 4099, false},
		{"read and write", 128<<10 + 1000, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "src")
			must(t, os.Mkdir(src, 0o755))
			if c.tmpfs {
				testfs.MountTmpfs(t, src)
			}
			f := filepath.Join(src, "f")
			want := pattern(c.size)
			must(t, os.WriteFile(f, want, 0o644))
			testHookOpened = func(int) {
				w, err := os.OpenFile(f, os.O_WRONLY|os.O_APPEND, 0)
				must(t, err)
				_, err = w.Write(pattern(256 << 10))
				must(t, err)
				must(t, w.Close())
			}
			defer func() { testHookOpened = nil }()
			dst := filepath.Join(t.TempDir(), "dst")
			_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
			must(t, err)
			if got, _ := os.ReadFile(filepath.Join(dst, "f")); !bytes.Equal(got, want) {
				t.Errorf("%d bytes copied, want the %d the source held at its stat", len(got), len(want))
			}
		})
	}
}

// TestCopyCancelledAfterItsLastChunk: a clone cancelled just as its one
// file's last chunk is copied fails as cancelled, not as a failed copy of
// that file, whose data was all copied: the context is looked at before
// each chunk still to copy, not after the last.
func TestCopyCancelledAfterItsLastChunk(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	must(t, os.Mkdir(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "f"), pattern(5000), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	testHookChunk = func(done int64) {
		if done == 5000 {
			cancel()
		}
	}
	defer func() { testHookChunk = nil }()
	_, err := CloneContext(ctx, src, filepath.Join(filepath.Dir(src), "dst"), &Options{Method: Copy, Workers: 1})
	var e *Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &e) {
		t.Errorf("a clone cancelled after its file was copied: %v, want the cancel alone", err)
	}
}

// denyFirstRead has fanotify refuse the first read of path (a permission
// event, FAN_ACCESS_PERM, answered FAN_DENY: EPERM) and allow every later
// one, until the test ends. It skips the test where the kernel or the
// user may not watch for permission events.
func denyFirstRead(t *testing.T, path string) {
	t.Helper()
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_CONTENT|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK, unix.O_RDONLY|unix.O_LARGEFILE)
	if err != nil {
		t.Skipf("skipping: fanotify_init for permission events: %v", err)
	}
	f := os.NewFile(uintptr(fd), "fanotify")
	if err := unix.FanotifyMark(fd, unix.FAN_MARK_ADD, unix.FAN_ACCESS_PERM, unix.AT_FDCWD, path); err != nil {
		f.Close()
		t.Skipf("skipping: fanotify_mark FAN_ACCESS_PERM: %v", err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		f.Close() // lets by what is still waiting, and ends the reads
		<-done
	})
	go func() {
		defer close(done)
		denied := false
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			if err != nil {
				return
			}
			r := bytes.NewReader(buf[:n])
			var m unix.FanotifyEventMetadata
			for binary.Read(r, binary.NativeEndian, &m) == nil {
				r.Seek(int64(m.Event_len)-int64(m.Metadata_len), io.SeekCurrent) // past any information records
				answer := unix.FanotifyResponse{Fd: m.Fd, Response: unix.FAN_ALLOW}
				if !denied {
					answer.Response, denied = unix.FAN_DENY, true
				}
				var w bytes.Buffer
				binary.Write(&w, binary.NativeEndian, answer)
				f.Write(w.Bytes())
				unix.Close(int(m.Fd))
			}
		}
	}()
}

// TestCopyFailsOnRefusedRead: copy_file_range refused the source's first
// read (EPERM) fails the copy, and the clone, undone: only an answer that
// it cannot copy between these files (EXDEV, EOPNOTSUPP, ENOSYS, EINVAL)
// has the file read and written instead, which the next read would be
// let do.
func TestCopyFailsOnRefusedRead(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.Mkdir(src, 0o755))
	f := filepath.Join(src, "f")
	must(t, os.WriteFile(f, pattern(10000), 0o644))
	denyFirstRead(t, f)
	dst := filepath.Join(base, "dst")
	_, err := Clone(src, dst, &Options{Method: Copy, Workers: 1})
	if !errors.Is(err, unix.EPERM) {
		t.Errorf("a clone whose copy_file_range was refused: %v, want EPERM", err)
	}
	if _, err := os.Lstat(dst); !os.IsNotExist(err) {
		t.Errorf("%s after the failed clone: %v", dst, err)
	}
}
