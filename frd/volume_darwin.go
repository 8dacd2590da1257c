package frd

import (
	"os"
	"unsafe"

	"github.com/pbednarcik/flexreaddir/internal/libsystem"
	"golang.org/x/sys/unix"
)

// VolumeCaps holds a volume's format capabilities: the bits it reports,
// and the bits it vouches for. macOS only.
type VolumeCaps struct {
	Capabilities uint32 // VOL_CAPABILITIES_FORMAT, as reported
	Valid        uint32 // the bits of Capabilities the volume vouches for
}

func (c VolumeCaps) bit(b uint32) (set, known bool) {
	known = c.Valid&b != 0
	return known && c.Capabilities&b != 0, known
}

// PersistentIDs reports whether the volume keeps a file's id across runs,
// so a listed FileID can be trusted. APFS does; FAT and exFAT do not.
func (c VolumeCaps) PersistentIDs() (set, known bool) { return c.bit(volCapFmtPersistIDs) }

// CaseSensitive reports whether two names differing only in case are two
// files.
func (c VolumeCaps) CaseSensitive() (set, known bool) { return c.bit(volCapFmtCaseSens) }

// DirHardLinks reports whether a directory can have more than one link.
func (c VolumeCaps) DirHardLinks() (set, known bool) { return c.bit(volCapFmtDirHardLink) }

var volumeAttrs = attrList{bitmapCount: 5, common: attrCmnReturnedAttrs, vol: attrVolInfo | attrVolCapabilities}

// Volume asks, with one fgetattrlist, what the volume holding the open
// descriptor fd can do. fd is never closed. The error is nil or an
// *os.PathError with Op fgetattrlist and no path: EBADF for a closed
// descriptor, EINVAL for one that is not a file or directory, ENOTSUP for a
// volume whose answer leaves the capabilities out. macOS only.
func Volume(fd uintptr) (VolumeCaps, error) {
	var buf [64]byte
	err := ignoringEINTR(func() error {
		return libsystem.Fgetattrlist(int(fd), unsafe.Pointer(&volumeAttrs), buf[:], 0)
	})
	if err != nil {
		return VolumeCaps{}, &os.PathError{Op: "fgetattrlist", Err: err}
	}
	caps, valid, ok, err := parseVolCaps(buf[:])
	if err != nil {
		return VolumeCaps{}, &os.PathError{Op: "fgetattrlist", Err: err}
	}
	if !ok {
		return VolumeCaps{}, &os.PathError{Op: "fgetattrlist", Err: unix.ENOTSUP}
	}
	return VolumeCaps{Capabilities: caps, Valid: valid}, nil
}

var dirLinkAttrs = attrList{bitmapCount: 5, common: attrCmnReturnedAttrs, dir: attrDirLinkCount}

// DirLinks returns the link count of the directory open as fd:
// ATTR_DIR_LINKCOUNT, the directory's own hard-link count (1 where the
// file system has no directory hard links), not st_nlink. fd is never
// closed. The error is nil or an *os.PathError with Op fgetattrlist and no
// path: ENOTDIR for a file's descriptor, ENOTSUP for a volume that does not
// report the count, or what the call or fstat answered. macOS only.
func DirLinks(fd uintptr) (uint32, error) {
	var buf [64]byte
	err := ignoringEINTR(func() error {
		return libsystem.Fgetattrlist(int(fd), unsafe.Pointer(&dirLinkAttrs), buf[:], 0)
	})
	if err != nil {
		return 0, &os.PathError{Op: "fgetattrlist", Err: err}
	}
	n, ok, err := parseDirLinkCount(buf[:])
	if err != nil {
		return 0, &os.PathError{Op: "fgetattrlist", Err: err}
	}
	if ok {
		return n, nil
	}
	// No count: a file's descriptor, or a volume that keeps none.
	var st unix.Stat_t
	if err := unix.Fstat(int(fd), &st); err != nil {
		return 0, &os.PathError{Op: "fgetattrlist", Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return 0, &os.PathError{Op: "fgetattrlist", Err: unix.ENOTDIR}
	}
	return 0, &os.PathError{Op: "fgetattrlist", Err: unix.ENOTSUP}
}
