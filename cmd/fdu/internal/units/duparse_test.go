package units

import (
	"os"
	"strconv"
	"testing"
)

// TestParsesAsDu: every value of duParses gives du's message, or du's
// size for 8,192 bytes, without GNU du installed: strtoumax's hex, octal,
// white space and sign, units alone, abbreviations of human-readable,
// -0 in any spelling, and the number kept before a bad suffix in
// DU_BLOCK_SIZE.
func TestParsesAsDu(t *testing.T) {
	const used uint64 = 8192
	for _, c := range duParses {
		var got string
		switch c.opt {
		case "-B":
			b, err := ParseBlockSize(c.arg)
			got = b.Format(used)
			if err != nil {
				got = SizeMessage(err, c.opt, c.arg)
			}
		case "-t":
			n, err := ParseThreshold(c.arg)
			switch {
			case err != nil:
				got = SizeMessage(err, c.opt, c.arg)
			case n >= 0 && used >= uint64(n) || n < 0 && used <= uint64(-n): // -(-2^63) is 2^63 as a uint64
				got = strconv.FormatUint(used/1024, 10)
			}
		case "DU_BLOCK_SIZE":
			for _, v := range []string{"BLOCK_SIZE", "BLOCKSIZE", "POSIXLY_CORRECT"} {
				t.Setenv(v, "")
				unsetenv(t, v)
			}
			t.Setenv(c.opt, c.arg)
			got = DefaultBlockSize().Format(used)
		}
		if got != c.out {
			t.Errorf("%s %q: %q, want du's %q", c.opt, c.arg, got, c.out)
		}
	}
}

// unsetenv unsets v for the rest of the test; t.Setenv first, so that it
// is put back after.
func unsetenv(t *testing.T, v string) {
	t.Helper()
	if err := os.Unsetenv(v); err != nil {
		t.Fatal(err)
	}
}
