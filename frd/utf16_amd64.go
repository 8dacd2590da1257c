//go:build amd64 && !purego

package frd

import "golang.org/x/sys/cpu"

// The amd64 name decoder converts runs of ASCII code units 16 (AVX2) or 8
// (SSE2) at a time, the common case of a file name; the first block with
// anything else, and the tail shorter than a block, go to the Go decoder.
// The assembly reads only whole blocks inside the name it is given.

//go:noescape
func asciiSSE2(dst, src *byte, units int) int

//go:noescape
func asciiAVX2(dst, src *byte, units int) int

// asciiImpls are the block converters this CPU can run, best first; the
// tests run every one.
var asciiImpls = func() []asciiImpl {
	impls := []asciiImpl{{"sse2", asciiSSE2}} // every amd64 CPU has SSE2
	if cpu.X86.HasAVX2 {
		impls = append([]asciiImpl{{"avx2", asciiAVX2}}, impls...)
	}
	return impls
}()

// asciiBlocks is the converter in use, chosen at run time.
var asciiBlocks = asciiImpls[0].fn
