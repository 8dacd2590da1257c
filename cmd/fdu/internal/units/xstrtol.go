package units

import (
	"math"
	"math/bits"
	"strings"
)

// numErr is gnulib's strtol_error: the ways a number argument failed,
// which xstrtol_fatal words apart ("invalid", "invalid suffix in",
// "too large").
type numErr uint8

const (
	numOverflow  numErr = 1 << iota // the value, or the value scaled, does not fit
	numBadSuffix                    // something after the number is no unit
	numInvalid                      // no number at all
)

// The units coreutils 9.1 takes: du's -B (human.c) and -t (du.c). A '0'
// lets a unit take a B, D or iB after it; R and Q came in 9.2.
const (
	blockSuffixes     = "eEgGkKmMpPtTyYzZ0"
	thresholdSuffixes = "kKmMGTPEZY0"
)

// strtonum reads s as gnulib's xstrtoumax (signed: xstrtoimax) does with
// base 0 and the units valid: C white space, a sign, 0x for hex and 0 for
// octal, then a unit. It returns the magnitude and sign of the value,
// clamped where it overflows, and what failed; the value is set whenever
// a number was read, as xstrtol sets it before a bad suffix.
func strtonum(s, valid string, signed bool) (mag uint64, neg bool, e numErr) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if !signed && i < len(s) && s[i] == '-' {
		return 0, false, numInvalid
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	limit := uint64(math.MaxUint64)
	if signed {
		limit = math.MaxInt64
		if neg {
			limit++
		}
	}
	mag, end, over := digits(s, i, limit)
	if over {
		e = numOverflow
	}
	rest := s[end:]
	if end == i {
		// No digits: strtol leaves its end at the start of s, and a unit
		// there alone means one of it.
		if s == "" || strings.IndexByte(valid, s[0]) < 0 {
			return 0, false, numInvalid
		}
		mag, neg, rest = 1, false, s
	}
	if rest == "" {
		return mag, neg, e
	}
	if strings.IndexByte(valid, rest[0]) < 0 {
		return mag, neg, e | numBadSuffix
	}
	mag, used, over2 := scale(mag, rest, valid, limit)
	if over2 {
		e |= numOverflow
	}
	if used < len(rest) {
		e |= numBadSuffix
	}
	return mag, neg, e
}

// digits reads the digits of s from i in strtol's base 0, clamping the
// value at limit; it returns the value, where the digits end, and whether
// they overflowed.
func digits(s string, i int, limit uint64) (v uint64, end int, over bool) {
	base := uint64(10)
	switch {
	case i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' && digitValue(s[i+2]) < 16:
		base, i = 16, i+2
	case i < len(s) && s[i] == '0':
		base = 8
	}
	for ; i < len(s) && digitValue(s[i]) < base; i++ {
		hi, lo := bits.Mul64(v, base)
		lo, carry := bits.Add64(lo, digitValue(s[i]), 0)
		if over || hi != 0 || carry != 0 || lo > limit {
			over, v = true, limit
			continue
		}
		v = lo
	}
	return v, i, over
}

// scale multiplies v by the unit rest begins with, and reports how many
// bytes of rest the unit took and whether the product overflowed limit.
func scale(v uint64, rest, valid string, limit uint64) (_ uint64, used int, over bool) {
	base, used := uint64(1024), 1
	if strings.IndexByte("EGgkKMmPQRTtYZ", rest[0]) >= 0 && strings.Contains(valid, "0") && len(rest) > 1 {
		switch {
		case rest[1] == 'i' && len(rest) > 2 && rest[2] == 'B':
			used += 2
		case rest[1] == 'B' || rest[1] == 'D':
			base, used = 1000, used+1
		}
	}
	var mult, power uint64 = 1, 0
	switch rest[0] {
	case 'b':
		mult = 512
	case 'B':
		mult = 1024
	case 'c':
	case 'w':
		mult = 2
	case 'k', 'K':
		power = 1
	case 'M', 'm':
		power = 2
	case 'G', 'g':
		power = 3
	case 'T', 't':
		power = 4
	case 'P':
		power = 5
	case 'E':
		power = 6
	case 'Z':
		power = 7
	case 'Y':
		power = 8
	case 'R':
		power = 9
	case 'Q':
		power = 10
	default:
		return v, 0, false // valid, but no unit xstrtol knows: a bad suffix
	}
	if power == 0 {
		power, base = 1, mult
	}
	for range power {
		if v > limit/base {
			v, over = limit, true
			continue
		}
		v *= base
	}
	return v, used, over
}

func digitValue(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'z':
		return uint64(c|0x20-'a') + 10
	}
	return 99
}

// isCSpace is isspace in the C locale.
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
