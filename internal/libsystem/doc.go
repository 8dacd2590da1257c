// Package libsystem calls the three libSystem functions frd's macOS
// backend needs, without cgo: getattrlistbulk, fgetattrlist and the private
// __getdirentries64.
//
// It reaches them the way golang.org/x/sys/unix reaches libSystem: a
// //go:cgo_import_dynamic directive names each function and its library,
// a one-instruction assembly trampoline jumps to it, and package
// syscall's syscall6 (syscall6X for __getdirentries64's ssize_t), reached
// by linkname, calls the trampoline through the runtime with errno
// handling. x/sys v0.50.0 exports none of these
// three (its Getdirentries is emulated over readdir_r).
//
// Written by hand, not generated: three functions do not repay a
// generator. TestImports (imports_test.go) cross-builds a program for
// darwin/arm64 and darwin/amd64 and checks with debug/macho that each
// symbol is imported from libSystem.
//
// On other systems the package is empty.
package libsystem
