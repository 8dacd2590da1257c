package units

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// Output options, as GNU du's human_options sets them.
const (
	humanAutoscale = 1 << iota // pick the unit: -h, --si
	humanSI                    // print a unit suffix
	humanBase1024              // units of 1024, not 1000
	humanB                     // the suffix ends in B
)

// BlockSize is how sizes are printed: a unit of Size bytes, and how its
// suffix is shown. A count (--inodes) keeps the options with a Size of 1.
type BlockSize struct {
	Size uint64
	opts int
}

// Human is -h's unit: powers of 1024, the unit picked for each size.
func Human() BlockSize { return BlockSize{Size: 1, opts: humanAutoscale | humanSI | humanBase1024} }

// HumanSI is --si's: powers of 1000.
func HumanSI() BlockSize { return BlockSize{Size: 1, opts: humanAutoscale | humanSI} }

// DefaultBlockSize is du's unit when no option sets one: DU_BLOCK_SIZE,
// or if it is unset BLOCK_SIZE, then BLOCKSIZE; else 512 under
// POSIXLY_CORRECT, 1024 otherwise. A value that does not parse is not an
// error, as with du: the number read before a bad suffix stands, or the
// default.
func DefaultBlockSize() BlockSize {
	def := BlockSize{Size: 1024}
	if _, ok := os.LookupEnv("POSIXLY_CORRECT"); ok {
		def = BlockSize{Size: 512}
	}
	for _, v := range []string{"DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE"} {
		if s, ok := os.LookupEnv(v); ok {
			b, _ := humblock(s)
			if b.Size == 0 {
				return def
			}
			return b
		}
	}
	return def
}

// ParseBlockSize parses a --block-size SIZE the way du does: an
// abbreviation of "human-readable" or "si", or a number (hex, octal, as
// strtoumax reads it) with an optional unit (K, KB, KiB, M, ...). A unit
// without a number also prints the unit after each size.
func ParseBlockSize(spec string) (BlockSize, error) {
	b, e := humblock(spec)
	switch {
	case b.Size == 0:
		return BlockSize{}, ErrSizeInvalid
	case e != 0:
		return BlockSize{}, sizeErr(e)
	}
	return b, nil
}

// humblock is gnulib's humblock: the unit spec names, and how it failed.
// On a bad suffix the size is the number read before it, which du keeps
// from an environment variable.
func humblock(spec string) (BlockSize, numErr) {
	spec = strings.TrimPrefix(spec, "'") // thousands grouping: the C locale has none
	words := []string{"human-readable", "si"}
	switch w, _ := argmatch("", spec, words, words); w {
	case "human-readable":
		return Human(), 0
	case "si":
		return HumanSI(), 0
	}
	n, _, e := strtonum(spec, blockSuffixes, false)
	if e != 0 {
		return BlockSize{Size: n}, e
	}
	b := BlockSize{Size: n}
	if strings.IndexFunc(spec, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 {
		// A unit alone (it parsed: spec begins with it) is shown too.
		b.opts |= humanSI
		if strings.HasSuffix(spec, "B") {
			b.opts |= humanB
		}
		if !strings.HasSuffix(spec, "B") || strings.HasSuffix(spec, "iB") {
			b.opts |= humanBase1024
		}
	}
	return b, 0
}

// ParseThreshold parses -t SIZE as du does (xstrtoimax): a size with
// du's units, negative to keep the entries at most that large (down to
// -2^63). "-0" and its spellings are refused as du refuses them.
func ParseThreshold(s string) (int64, error) {
	mag, neg, e := strtonum(s, thresholdSuffixes, true)
	switch {
	case e != 0:
		return 0, sizeErr(e)
	case mag == 0 && strings.HasPrefix(s, "-"):
		return 0, ErrThresholdMinusZero
	case neg:
		return int64(-mag), nil // -2^63 wraps to itself
	}
	return int64(mag), nil
}

// sizeErr is the error xstrtol_fatal words for e.
func sizeErr(e numErr) error {
	switch {
	case e&numInvalid != 0:
		return ErrSizeInvalid
	case e&numBadSuffix != 0:
		return ErrSizeSuffix
	}
	return ErrSizeOverflow
}

// The ways a size argument fails, as gnulib's xstrtol tells them apart.
var (
	ErrSizeInvalid  = errors.New("invalid")
	ErrSizeSuffix   = errors.New("invalid suffix")
	ErrSizeOverflow = errors.New("too large")
	// ErrThresholdMinusZero is -t -0 in any spelling: du words it alone.
	ErrThresholdMinusZero = errors.New("invalid --threshold argument '-0'")
)

// SizeMessage is du's message for the size argument arg of the option opt
// ("-B", "--threshold"...) that failed with err (xstrtol_fatal's words).
func SizeMessage(err error, opt, arg string) string {
	switch err {
	case ErrThresholdMinusZero:
		return err.Error() // du's own words, however -0 was spelled
	case ErrSizeSuffix:
		return message.SizeSuffix(opt, arg)
	case ErrSizeOverflow:
		return message.SizeTooLarge(opt, arg)
	}
	return message.InvalidSize(opt, arg)
}

var powerLetter = "KMGTPEZYRQ"

// exponentMax is the largest power of the base human_readable scales to.
// Autoscaling never nears it: 2^64 bytes are less than 1000^7.
const exponentMax = 10

// Format prints n bytes (or inodes, with a unit of 1) in the unit b, as
// gnulib's human_readable does with du's options: rounding up, and under
// autoscale one decimal below 10. Rounding up (human_ceiling), it needs
// of what a division leaves only the tenths and whether anything is left
// past them (more): gnulib's half-unit states serve its other roundings.
func (b BlockSize) Format(n uint64) string {
	amt, tenths, more := n, uint64(0), false
	if b.Size > 1 {
		d := b.Size
		r10 := (n % d) * 10
		r2 := (r10 % d) * 2
		amt = n / d
		tenths = r10 / d
		// r10 and r2 wrap for a unit above 2^64/10 as du's do, so that
		// a 4 EiB file is 0 in units of 9 EiB: r2 is kept for that.
		more = r2 != 0
	}
	exponent, frac := 0, ""
	if b.opts&humanAutoscale != 0 {
		amt, tenths, more, exponent, frac = b.autoscaled(amt, tenths, more)
	}
	if tenths > 0 || more {
		amt++
		if b.opts&humanAutoscale != 0 && amt == b.base() {
			exponent++
			frac = ".0"
			amt = 1
		}
	}
	if b.opts&humanSI == 0 {
		return strconv.FormatUint(amt, 10) + frac
	}
	return strconv.FormatUint(amt, 10) + frac + b.suffix(exponent)
}

func (b BlockSize) base() uint64 {
	if b.opts&humanBase1024 != 0 {
		return 1024
	}
	return 1000
}

// autoscaled is amt, with its tenths and whether more is left, divided by
// the base until it is below it, with one decimal (frac) below 10, and
// the power it was divided by.
func (b BlockSize) autoscaled(amt, tenths uint64, more bool) (_, _ uint64, _ bool, exponent int, frac string) {
	base := b.base()
	if amt < base {
		return amt, tenths, more, 0, ""
	}
	for {
		r10 := (amt%base)*10 + tenths
		more = more || r10%base != 0
		amt /= base
		tenths = r10 / base
		exponent++
		if amt < base {
			break
		}
	}
	if amt < 10 {
		if more {
			tenths++
			more = false
			if tenths == 10 {
				amt++
				tenths = 0
			}
		}
		if amt < 10 {
			frac = "." + strconv.FormatUint(tenths, 10)
			tenths, more = 0, false
		}
	}
	return amt, tenths, more, exponent, frac
}

// suffix is the unit a size is printed with: under autoscale the power
// of the base it was scaled by (exponent), else b's own.
func (b BlockSize) suffix(exponent int) string {
	if b.opts&humanAutoscale == 0 {
		exponent = 0
		for power := uint64(1); power < b.Size; power *= b.base() {
			if exponent++; exponent == exponentMax {
				break
			}
		}
	}
	out := ""
	if exponent > 0 {
		if b.opts&humanBase1024 == 0 && exponent == 1 {
			out = "k"
		} else {
			out = powerLetter[exponent-1 : exponent]
		}
	}
	if b.opts&humanB != 0 {
		// Only a unit alone (-BKiB) has a B, and it is 1000 or more:
		// the exponent is at least 1.
		if b.opts&humanBase1024 != 0 {
			out += "i"
		}
		out += "B"
	}
	return out
}
