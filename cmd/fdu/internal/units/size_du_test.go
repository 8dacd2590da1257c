package units

import (
	"strings"
	"testing"
)

// duSizes are the sizes duFormats holds GNU du's output for: zero, one
// and two; each side of 10 (where -h drops its decimal), of 1000 and 1024
// (where --si and -h change unit), of half a unit (rounding) and of the
// carry from 1023K to 1.0M; sizes just past 1M whose last tenth comes
// from the bytes the first division leaves (1048679 and 1000100, 1.1M;
// 1153536 and 1100100, 1.2M); 2^59 and 2^62 (half an E, and 4E, which
// is 0 in units of 9E); and the largest size a file can have.
var duSizes = []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99, 100, 101, 512, 999, 1000, 1001,
	1023, 1024, 1025, 1535, 1536, 1537, 9999, 10000, 10188, 10189, 10239, 10240, 10241, 10751, 10752,
	102399, 102400, 999499, 999500, 999999, 1000000, 1000001, 1000100, 1047552, 1047553, 1048575,
	1048576, 1048577, 1048679, 1100100, 1153536, 1073741823, 1073741824, 576460752303423488,
	1152921504606846975, 1152921504606846976, 4611686018427387904, 9223372036854775807}

// duFormats is GNU du 9.1's output for each of duSizes, by option, made
// on tmpfs (which takes a file of 2^63-1 bytes) with
//
//	for n in $sizes; do truncate -s $n f; LC_ALL=C du --apparent-size $opt f | cut -f1; done
var duFormats = map[string]string{
	"-h":    "0 1 2 3 4 5 6 7 8 9 10 11 99 100 101 512 999 1000 1001 1023 1.0K 1.1K 1.5K 1.5K 1.6K 9.8K 9.8K 10K 10K 10K 10K 11K 11K 11K 100K 100K 977K 977K 977K 977K 977K 977K 1023K 1.0M 1.0M 1.0M 1.1M 1.1M 1.1M 1.2M 1.0G 1.0G 512P 1.0E 1.0E 4.0E 8.0E",
	"--si":  "0 1 2 3 4 5 6 7 8 9 10 11 99 100 101 512 999 1.0k 1.1k 1.1k 1.1k 1.1k 1.6k 1.6k 1.6k 10k 10k 11k 11k 11k 11k 11k 11k 11k 103k 103k 1.0M 1.0M 1.0M 1.0M 1.1M 1.1M 1.1M 1.1M 1.1M 1.1M 1.1M 1.1M 1.2M 1.2M 1.1G 1.1G 577P 1.2E 1.2E 4.7E 9.3E",
	"-B1":   "0 1 2 3 4 5 6 7 8 9 10 11 99 100 101 512 999 1000 1001 1023 1024 1025 1535 1536 1537 9999 10000 10188 10189 10239 10240 10241 10751 10752 102399 102400 999499 999500 999999 1000000 1000001 1000100 1047552 1047553 1048575 1048576 1048577 1048679 1100100 1153536 1073741823 1073741824 576460752303423488 1152921504606846975 1152921504606846976 4611686018427387904 9223372036854775807",
	"-B3":   "0 1 1 1 2 2 2 3 3 3 4 4 33 34 34 171 333 334 334 341 342 342 512 512 513 3333 3334 3396 3397 3413 3414 3414 3584 3584 34133 34134 333167 333167 333333 333334 333334 333367 349184 349185 349525 349526 349526 349560 366700 384512 357913941 357913942 192153584101141163 384307168202282325 384307168202282326 1537228672809129302 3074457345618258603",
	"-B4":   "0 1 1 1 1 2 2 2 2 3 3 3 25 25 26 128 250 250 251 256 256 257 384 384 385 2500 2500 2547 2548 2560 2560 2561 2688 2688 25600 25600 249875 249875 250000 250000 250001 250025 261888 261889 262144 262144 262145 262170 275025 288384 268435456 268435456 144115188075855872 288230376151711744 288230376151711744 1152921504606846976 2305843009213693952",
	"-B7":   "0 1 1 1 1 1 1 1 2 2 2 2 15 15 15 74 143 143 143 147 147 147 220 220 220 1429 1429 1456 1456 1463 1463 1463 1536 1536 14629 14629 142786 142786 142857 142858 142858 142872 149651 149651 149797 149797 149797 149812 157158 164791 153391689 153391690 82351536043346213 164703072086692425 164703072086692426 658812288346769701 1317624576693539401",
	"-BK":   "0K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 1K 2K 2K 2K 2K 10K 10K 10K 10K 10K 10K 11K 11K 11K 100K 100K 977K 977K 977K 977K 977K 977K 1023K 1024K 1024K 1024K 1025K 1025K 1075K 1127K 1048576K 1048576K 562949953421312K 1125899906842624K 1125899906842624K 4503599627370496K 9007199254740992K",
	"-BKB":  "0kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 2kB 2kB 2kB 2kB 2kB 2kB 2kB 10kB 10kB 11kB 11kB 11kB 11kB 11kB 11kB 11kB 103kB 103kB 1000kB 1000kB 1000kB 1000kB 1001kB 1001kB 1048kB 1048kB 1049kB 1049kB 1049kB 1049kB 1101kB 1154kB 1073742kB 1073742kB 576460752303424kB 1152921504606847kB 1152921504606847kB 4611686018427388kB 9223372036854776kB",
	"-BkB":  "0kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 1kB 2kB 2kB 2kB 2kB 2kB 2kB 2kB 10kB 10kB 11kB 11kB 11kB 11kB 11kB 11kB 11kB 103kB 103kB 1000kB 1000kB 1000kB 1000kB 1001kB 1001kB 1048kB 1048kB 1049kB 1049kB 1049kB 1049kB 1101kB 1154kB 1073742kB 1073742kB 576460752303424kB 1152921504606847kB 1152921504606847kB 4611686018427388kB 9223372036854776kB",
	"-BKiB": "0KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 1KiB 2KiB 2KiB 2KiB 2KiB 10KiB 10KiB 10KiB 10KiB 10KiB 10KiB 11KiB 11KiB 11KiB 100KiB 100KiB 977KiB 977KiB 977KiB 977KiB 977KiB 977KiB 1023KiB 1024KiB 1024KiB 1024KiB 1025KiB 1025KiB 1075KiB 1127KiB 1048576KiB 1048576KiB 562949953421312KiB 1125899906842624KiB 1125899906842624KiB 4503599627370496KiB 9007199254740992KiB",
	"-BMB":  "0MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 1MB 2MB 2MB 2MB 2MB 2MB 2MB 2MB 2MB 2MB 2MB 1074MB 1074MB 576460752304MB 1152921504607MB 1152921504607MB 4611686018428MB 9223372036855MB",
	"-BGiB": "0GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 1GiB 536870912GiB 1073741824GiB 1073741824GiB 4294967296GiB 8589934592GiB",
	"-B01K": "0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 10 10 10 10 10 10 11 11 11 100 100 977 977 977 977 977 977 1023 1024 1024 1024 1025 1025 1075 1127 1048576 1048576 562949953421312 1125899906842624 1125899906842624 4503599627370496 9007199254740992",
	"-B9K":  "0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 2 12 12 109 109 109 109 109 109 114 114 114 114 114 114 120 126 116509 116509 62549994824591 125099989649181 125099989649181 500399958596722 1000799917193444",
	"-BE":   "0E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 1E 4E 8E",
	"-B9E":  "0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 1",
}

// TestFormatAsGNUDu: every size in every unit as GNU du printed it, so
// that the test needs no du: -h's and --si's decimals and carries, -B's
// rounding up at, below and above half a unit, and a unit's suffix
// printed only when the unit had no number (-BK, not -B01K or -B9K).
// With -B9E du's remainder times ten wraps past 2^64, as it does in
// gnulib's human_readable, so that 4E bytes are printed as 0.
func TestFormatAsGNUDu(t *testing.T) {
	for opt, line := range duFormats {
		spec := strings.TrimPrefix(opt, "-B")
		switch opt {
		case "-h":
			spec = "human-readable"
		case "--si":
			spec = "si"
		}
		b, err := ParseBlockSize(spec)
		if err != nil {
			t.Fatalf("%s: %v", opt, err)
		}
		want := strings.Fields(line)
		if len(want) != len(duSizes) {
			t.Fatalf("%s: %d outputs for %d sizes", opt, len(want), len(duSizes))
		}
		for i, n := range duSizes {
			if got := b.Format(n); got != want[i] {
				t.Errorf("du %s, %d bytes: %q, want %q", opt, n, got, want[i])
			}
		}
	}
}

// TestParseSizeErrors: the kind of error each bad -B argument is, as GNU
// du 9.1 words it (LC_ALL=C du -B ARG -s .): "invalid -B argument"
// (ErrSizeInvalid), "invalid suffix in -B argument" (ErrSizeSuffix) or
// "-B argument ... too large" (ErrSizeOverflow); and the sizes the good
// ones stand for, their digits 0 and 9 included.
func TestParseSizeErrors(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want error
	}{
		{"x", ErrSizeInvalid}, {"", ErrSizeInvalid}, {"0", ErrSizeInvalid}, {"0K", ErrSizeInvalid},
		{"1x", ErrSizeSuffix}, {"1Kx", ErrSizeSuffix}, {"1Ki", ErrSizeSuffix},
		{"18446744073709551616", ErrSizeOverflow}, {"16E", ErrSizeOverflow},
	} {
		if _, err := ParseBlockSize(c.arg); err != c.want {
			t.Errorf("-B %q: %v, want %v", c.arg, err, c.want)
		}
	}
	for _, c := range []struct {
		arg  string
		want uint64
	}{
		{"1", 1}, {"10", 10}, {"9", 9}, {"90K", 92160}, {"01K", 1024}, {"15E", 15 << 60},
		{"16EB", 16e18}, {"1KD", 1000}, {"k", 1024}, {"2kB", 2000},
	} {
		b, err := ParseBlockSize(c.arg)
		if err != nil || b.Size != c.want {
			t.Errorf("-B %q: %d, %v; want %d", c.arg, b.Size, err, c.want)
		}
	}
	for _, c := range []struct {
		arg  string
		want int64
		err  error
	}{
		{"0", 0, nil}, {"1", 1, nil}, {"-1", -1, nil}, {"-0", 0, ErrThresholdMinusZero},
		{"9223372036854775807", 9223372036854775807, nil}, {"9223372036854775808", 0, ErrSizeOverflow},
		{"-9223372036854775808", -9223372036854775808, nil}, {"-9223372036854775809", 0, ErrSizeOverflow},
		{"-1K", -1024, nil},
	} {
		n, err := ParseThreshold(c.arg)
		if n != c.want || err != c.err {
			t.Errorf("-t %q: %d, %v; want %d, %v", c.arg, n, err, c.want, c.err)
		}
	}
}
