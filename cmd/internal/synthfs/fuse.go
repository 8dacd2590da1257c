//go:build linux && (amd64 || arm64)

// go-fuse's splice package builds on 64-bit systems only.

package synthfs

import (
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fuse"
)

// cacheFor is how long the kernel may keep what it was told: the tree
// never changes.
const cacheFor = time.Hour

// FS serves a Tree through FUSE's raw protocol: a node's id is its inode,
// so the server keeps nothing per entry whatever the kernel looks up.
type FS struct {
	fuse.RawFileSystem
	t     *Tree
	delay time.Duration // before each directory is opened: a slow tree
}

// NewFS serves t, waiting delay each time a directory is opened.
func NewFS(t *Tree, delay time.Duration) *FS {
	return &FS{RawFileSystem: fuse.NewDefaultRawFileSystem(), t: t, delay: delay}
}

// Mount serves fs on dir until it is unmounted (Server.Unmount, umount).
func Mount(fs *FS, dir string) (*fuse.Server, error) {
	srv, err := fuse.NewServer(fs, dir, &fuse.MountOptions{
		FsName: "synthfs", Name: "synthfs", AllowOther: true, DirectMount: true,
		DisableXAttrs: true, MaxReadAhead: 128 << 10, Options: []string{"ro"},
	})
	if err != nil {
		return nil, err
	}
	go srv.Serve()
	if err := srv.WaitMount(); err != nil {
		srv.Unmount()
		return nil, err
	}
	return srv, nil
}

func (fs *FS) String() string { return "synthfs" }

// attr fills a with what ino is.
func (fs *FS) attr(ino uint64, n node, a *fuse.Attr) {
	a.Ino, a.Blksize = ino, 4096
	if n.dir {
		a.Mode, a.Size, a.Blocks, a.Nlink = syscall.S_IFDIR|0o755, 4096, 8, uint32(2+fs.t.fanout(n.level))
	} else {
		size := fs.t.size(ino)
		a.Mode, a.Size, a.Blocks, a.Nlink = syscall.S_IFREG|0o644, size, (size+4095)/4096*8, 1
	}
	m := mtime(ino)
	a.Mtime, a.Ctime, a.Atime = m, m, m
}

func (fs *FS) entry(ino uint64, out *fuse.EntryOut) {
	n, _ := fs.t.locate(ino)
	out.NodeId, out.Generation = ino, 1
	fs.attr(ino, n, &out.Attr)
	out.SetEntryTimeout(cacheFor)
	out.SetAttrTimeout(cacheFor)
}

func (fs *FS) Lookup(_ <-chan struct{}, h *fuse.InHeader, name string, out *fuse.EntryOut) fuse.Status {
	n, ok := fs.t.locate(h.NodeId)
	if !ok || !n.dir {
		return fuse.ENOTDIR
	}
	ino, ok := fs.t.lookup(n, name)
	if !ok {
		return fuse.ENOENT
	}
	fs.entry(ino, out)
	return fuse.OK
}

func (fs *FS) Forget(uint64, uint64) {} // nothing is kept per node

func (fs *FS) GetAttr(_ <-chan struct{}, in *fuse.GetAttrIn, out *fuse.AttrOut) fuse.Status {
	n, ok := fs.t.locate(in.NodeId)
	if !ok {
		return fuse.ENOENT
	}
	fs.attr(in.NodeId, n, &out.Attr)
	out.SetTimeout(cacheFor)
	return fuse.OK
}

func (fs *FS) OpenDir(_ <-chan struct{}, in *fuse.OpenIn, out *fuse.OpenOut) fuse.Status {
	n, ok := fs.t.locate(in.NodeId)
	if !ok || !n.dir {
		return fuse.ENOTDIR
	}
	time.Sleep(fs.delay)
	out.OpenFlags = fuse.FOPEN_KEEP_CACHE | fuse.FOPEN_CACHE_DIR
	return fuse.OK
}

func (fs *FS) ReleaseDir(*fuse.ReleaseIn) {}

func (fs *FS) ReadDir(_ <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	return fs.list(in, out, false)
}

func (fs *FS) ReadDirPlus(_ <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	return fs.list(in, out, true)
}

// list adds the entries of the directory in.NodeId from in.Offset (an
// entry's index) while they fit, with their attributes when plus.
func (fs *FS) list(in *fuse.ReadIn, out *fuse.DirEntryList, plus bool) fuse.Status {
	n, ok := fs.t.locate(in.NodeId)
	if !ok || !n.dir {
		return fuse.ENOTDIR
	}
	for k := int(in.Offset); k < fs.t.count(n); k++ {
		ino, name := fs.t.child(n, k)
		mode := uint32(syscall.S_IFREG)
		if k >= fs.t.files(n.level) {
			mode = syscall.S_IFDIR
		}
		e := fuse.DirEntry{Name: name, Ino: ino, Mode: mode, Off: uint64(k + 1)}
		if !plus {
			if !out.AddDirEntry(e) {
				break
			}
			continue
		}
		eo := out.AddDirLookupEntry(e)
		if eo == nil {
			break
		}
		fs.entry(ino, eo)
	}
	return fuse.OK
}

func (fs *FS) StatFs(_ <-chan struct{}, _ *fuse.InHeader, out *fuse.StatfsOut) fuse.Status {
	out.Bsize, out.Frsize, out.NameLen = 4096, 4096, 255
	out.Files = fs.t.end
	return fuse.OK
}

// mtime is ino's modification time: within a year before a fixed day.
func mtime(ino uint64) uint64 { return 1700000000 - hash(ino^0xc2b2ae35)%(365*86400) }
