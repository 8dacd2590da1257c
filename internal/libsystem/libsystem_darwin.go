package libsystem

import (
	"syscall"
	"unsafe"
)

// syscall6 is package syscall's syscall6 (syscall/syscall_darwin.go in Go
// 1.26): it calls fn with six arguments through the runtime, releasing
// the P, and returns errno when the C function's int result, the low 32
// bits of r1, is -1.
//
//go:linkname syscall6 syscall.syscall6
func syscall6(fn, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2 uintptr, err syscall.Errno)

// syscall6X is syscall6 for a C function returning a 64-bit value
// (ssize_t): errno when all of r1 is -1.
//
//go:linkname syscall6X syscall.syscall6X
func syscall6X(fn, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2 uintptr, err syscall.Errno)

//go:cgo_import_dynamic libc_getattrlistbulk getattrlistbulk "/usr/lib/libSystem.B.dylib"
//go:cgo_import_dynamic libc_fgetattrlist fgetattrlist "/usr/lib/libSystem.B.dylib"
//go:cgo_import_dynamic libc___getdirentries64 __getdirentries64 "/usr/lib/libSystem.B.dylib"

// The trampolines' addresses, set by the assembly in trampolines_darwin.s.
var (
	libc_getattrlistbulk_trampoline_addr   uintptr
	libc_fgetattrlist_trampoline_addr      uintptr
	libc___getdirentries64_trampoline_addr uintptr
)

// Getattrlistbulk calls
//
//	int getattrlistbulk(int dirfd, struct attrlist *attrList, void *attrBuf,
//	                    size_t attrBufSize, uint64_t options);
//
// and returns the number of entries it packed into buf: 0 at the end of
// the directory.
func Getattrlistbulk(dirfd int, attrList unsafe.Pointer, buf []byte, options uint64) (int, error) {
	r, _, errno := syscall6(libc_getattrlistbulk_trampoline_addr, uintptr(dirfd), uintptr(attrList),
		uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)), uintptr(options), 0)
	if errno != 0 {
		return 0, errno
	}
	return int(int32(r)), nil // a C int, as syscall6 reads it
}

// Fgetattrlist calls
//
//	int fgetattrlist(int fd, struct attrlist *attrList, void *attrBuf,
//	                 size_t attrBufSize, unsigned int options);
func Fgetattrlist(fd int, attrList unsafe.Pointer, buf []byte, options uint32) error {
	_, _, errno := syscall6(libc_fgetattrlist_trampoline_addr, uintptr(fd), uintptr(attrList),
		uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)), uintptr(options), 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// Getdirentries64 calls the private
//
//	ssize_t __getdirentries64(int fd, void *buf, size_t bufsize, off_t *basep);
//
// the call readdir makes, and returns the bytes of struct direntry records
// it wrote into buf: 0 at the end of the directory.
func Getdirentries64(fd int, buf []byte, basep *int64) (int, error) {
	r, _, errno := syscall6X(libc___getdirentries64_trampoline_addr, uintptr(fd),
		uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)), uintptr(unsafe.Pointer(basep)), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}
