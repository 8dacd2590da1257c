//go:build amd64 && !purego

#include "textflag.h"

// Each UTF-16 code unit below 0x80 has no bit of 0xFF80 set.
DATA nonASCII<>+0(SB)/8, $0xff80ff80ff80ff80
DATA nonASCII<>+8(SB)/8, $0xff80ff80ff80ff80
DATA nonASCII<>+16(SB)/8, $0xff80ff80ff80ff80
DATA nonASCII<>+24(SB)/8, $0xff80ff80ff80ff80
GLOBL nonASCII<>(SB), RODATA|NOPTR, $32

// func asciiSSE2(dst, src *byte, units int) int
// Converts whole blocks of 8 ASCII code units from src (little-endian
// UTF-16) to bytes at dst, stopping before the first block that holds
// anything else or would pass units; returns the units converted.
TEXT ·asciiSSE2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ units+16(FP), CX
	XORQ AX, AX
	MOVOU nonASCII<>(SB), X2
	PXOR X3, X3
sse2loop:
	MOVQ CX, DX
	SUBQ AX, DX
	CMPQ DX, $8
	JLT sse2done
	MOVOU (SI)(AX*2), X0
	MOVOU X0, X1
	PAND X2, X1
	PCMPEQW X3, X1
	PMOVMSKB X1, BX
	CMPL BX, $0xffff
	JNE sse2done
	PACKUSWB X0, X0
	MOVQ X0, (DI)(AX*1)
	ADDQ $8, AX
	JMP sse2loop
sse2done:
	MOVQ AX, ret+24(FP)
	RET

// func asciiAVX2(dst, src *byte, units int) int
// As asciiSSE2, 16 code units at a time.
TEXT ·asciiAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ units+16(FP), CX
	XORQ AX, AX
	VMOVDQU nonASCII<>(SB), Y2
	VPXOR Y3, Y3, Y3
avx2loop:
	MOVQ CX, DX
	SUBQ AX, DX
	CMPQ DX, $16
	JLT avx2done
	VMOVDQU (SI)(AX*2), Y0
	VPAND Y2, Y0, Y1
	VPCMPEQW Y3, Y1, Y1
	VPMOVMSKB Y1, BX
	CMPL BX, $0xffffffff
	JNE avx2done
	VEXTRACTI128 $1, Y0, X1
	VPACKUSWB X1, X0, X0
	VMOVDQU X0, (DI)(AX*1)
	ADDQ $16, AX
	JMP avx2loop
avx2done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
