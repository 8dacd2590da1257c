//go:build linux || darwin || windows

package frd

import (
	"bytes"
	"testing"
)

// TestCopyName copies names of every length up to 255 out of a buffer
// and into one that have only wordSlack bytes past them: the name arrives
// whole, and nothing before it is touched.
func TestCopyName(t *testing.T) {
	for n := 1; n <= 255; n++ {
		src := make([]byte, n+wordSlack)
		for i := range n {
			src[i] = byte('a' + i%26)
		}
		dst := bytes.Repeat([]byte{'#'}, 3+n+wordSlack)
		copyName(dst[3:], src, n)
		if string(dst[:3]) != "###" || !bytes.Equal(dst[3:3+n], src[:n]) {
			t.Fatalf("length %d: got %q", n, dst)
		}
	}
}
