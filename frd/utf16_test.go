package frd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"unicode/utf16"
	"unsafe"
)

// withImpl runs f with each block converter this machine has in turn.
func withImpl(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := asciiBlocks
	defer func() { asciiBlocks = saved }()
	for _, impl := range append(asciiImpls, asciiImpl{"go", asciiGo}) {
		asciiBlocks = impl.fn
		t.Run(impl.name, f)
	}
}

// TestDecoderImpls runs the exhaustive decoder tests with every converter.
func TestDecoderImpls(t *testing.T) {
	withImpl(t, TestWTF8Exhaustive)
}

// TestDecoderBlocks checks each converter directly at every length from 0
// to 64 and every alignment of source and destination: it converts exactly
// the whole ASCII blocks before the first other unit, and writes nothing
// past what it reports.
func TestDecoderBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, impl := range asciiImpls {
		if impl.name == "go" {
			continue // converts no blocks: the Go decoder does all
		}
		block := 8
		if impl.name == "avx2" {
			block = 16
		}
		t.Run(impl.name, func(t *testing.T) {
			for n := 0; n <= 64; n++ {
				for align := 0; align < 32; align++ {
					units := make([]uint16, n)
					for i := range units {
						units[i] = uint16('a' + r.IntN(26))
					}
					firstOther := n
					if n > 0 && r.IntN(2) == 0 {
						firstOther = r.IntN(n)
						units[firstOther] = uint16(0x80 + r.IntN(0xff00))
					}
					srcBuf := make([]byte, 2*n+64)
					src := srcBuf[align : align+2*n]
					for i, u := range units {
						binary.LittleEndian.PutUint16(src[2*i:], u)
					}
					dstBuf := bytes.Repeat([]byte{0xAA}, n+64)
					dst := dstBuf[align:]
					var got int
					if n > 0 {
						got = impl.fn(unsafe.SliceData(dst), unsafe.SliceData(src), n)
					}
					want := firstOther / block * block
					if got != want {
						t.Fatalf("n %d align %d first non-ASCII %d: converted %d, want %d", n, align, firstOther, got, want)
					}
					for i := range got {
						if dst[i] != byte(units[i]) {
							t.Fatalf("n %d align %d: byte %d is %#x, want %#x", n, align, i, dst[i], units[i])
						}
					}
					for i := got; i < len(dst); i++ {
						if dst[i] != 0xAA {
							t.Fatalf("n %d align %d: wrote byte %d past the %d converted", n, align, i, got)
						}
					}
				}
			}
		})
	}
}

// FuzzDecoder compares the decoder in use with the Go decoder.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("a\x00b\x00c\x00d\x00e\x00f\x00g\x00h\x00i\x00j\x00k\x00l\x00m\x00n\x00o\x00p\x00q\x00"))
	f.Add([]byte{0x3D, 0xD8, 0x00, 0xDE, 'a', 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		b = b[:len(b)&^1]
		if got, want := appendWTF8(nil, b), appendWTF8Go(nil, b); !bytes.Equal(got, want) {
			t.Fatalf("%x: %q, Go decoder %q", b, got, want)
		}
	})
}

// BenchmarkDecodeName decodes file names of 12 and 40 ASCII characters and
// of 12 mixed ones, with this package's decoder and with utf16.Decode (what
// windows.UTF16ToString amounts to).
func BenchmarkDecodeName(b *testing.B) {
	for _, c := range []struct{ label, name string }{
		{"ascii12", "report12.txt"},
		{"ascii41", "a-longer-file-name-of-forty-characters.go"},
		{"mixed12", "résumé-日本.md"},
	} {
		name := c.name
		units := utf16.Encode([]rune(name))
		raw := make([]byte, 2*len(units))
		for i, u := range units {
			binary.LittleEndian.PutUint16(raw[2*i:], u)
		}
		b.Run(fmt.Sprintf("name=%s/impl=frd-%s", c.label, asciiImpls[0].name), func(b *testing.B) {
			buf := make([]byte, 0, 256)
			for b.Loop() {
				buf = appendWTF8(buf[:0], raw)
			}
		})
		b.Run(fmt.Sprintf("name=%s/impl=utf16.Decode", c.label), func(b *testing.B) {
			var s string
			for b.Loop() {
				s = string(utf16.Decode(units))
			}
			_ = s
		})
	}
}
