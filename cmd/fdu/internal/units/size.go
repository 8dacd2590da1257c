package units

import (
	"errors"
	"math"
	"math/bits"
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
// BLOCK_SIZE, BLOCKSIZE, then 512 under POSIXLY_CORRECT, else 1024.
// A value that does not parse is not an error, as with du: the default
// unit stands, or with a bad suffix the number before it.
func DefaultBlockSize() BlockSize {
	def := BlockSize{Size: 1024}
	if _, ok := os.LookupEnv("POSIXLY_CORRECT"); ok {
		def = BlockSize{Size: 512}
	}
	for _, v := range []string{"DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE"} {
		if s, ok := os.LookupEnv(v); ok && s != "" {
			b, err := ParseBlockSize(s)
			switch err {
			case nil:
				return b
			case ErrSizeSuffix:
				if n := leadingNumber(strings.TrimPrefix(s, "'")); n > 0 {
					return BlockSize{Size: n}
				}
			case ErrSizeOverflow:
				return BlockSize{Size: math.MaxUint64}
			}
			return def
		}
	}
	return def
}

// leadingNumber is the decimal number s begins with, 0 if none.
func leadingNumber(s string) uint64 {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.ParseUint(s[:i], 10, 64)
	return n
}

// ParseBlockSize parses a --block-size SIZE the way du does: "human-readable",
// "si", or an optional number followed by an optional unit (K, KB, KiB, M,
// ...). A unit without a number also prints the unit after each size.
func ParseBlockSize(spec string) (BlockSize, error) {
	switch spec {
	case "human-readable":
		return Human(), nil
	case "si":
		return HumanSI(), nil
	}
	s := strings.TrimPrefix(spec, "'") // thousands grouping: the C locale has none
	n, unit, err := ParseSize(s)
	if err != nil {
		return BlockSize{}, err
	}
	if n == 0 {
		return BlockSize{}, ErrSizeInvalid
	}
	b := BlockSize{Size: n}
	if s != "" && (s[0] < '0' || s[0] > '9') && unit != "" {
		b.opts |= humanSI
		if strings.HasSuffix(unit, "B") {
			b.opts |= humanB
		}
		if !strings.HasSuffix(unit, "B") || strings.HasSuffix(unit, "iB") {
			b.opts |= humanBase1024
		}
	}
	return b, nil
}

// ParseSize parses a number with an optional unit as xstrtoumax does with
// du's suffixes: K, M, G, T, P, E, Z, Y, R, Q (powers of 1024; KB, MB...
// powers of 1000; KiB... powers of 1024), b (512), c and B (1), k for K.
// A unit alone means one of it. It returns the value and the unit.
func ParseSize(s string) (uint64, string, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n := uint64(1)
	if i > 0 {
		var err error
		if n, err = strconv.ParseUint(s[:i], 10, 64); err != nil {
			return 0, "", ErrSizeOverflow // digits only: too many of them
		}
	}
	unit := s[i:]
	if unit == "" {
		if i == 0 {
			return 0, "", ErrSizeInvalid
		}
		return n, "", nil
	}
	badSuffix := ErrSizeSuffix
	if i == 0 {
		badSuffix = ErrSizeInvalid // no number, and no unit either, as xstrtoumax sees it
	}
	var mult uint64
	switch unit {
	case "b":
		mult = 512
	case "c", "B":
		mult = 1
	default:
		// Coreutils 9.1's units: R and Q came in 9.2.
		p := strings.IndexByte("KMGTPEZY", unit[0]&^0x20)
		if unit[0] == 'k' {
			p = 0
		}
		if p < 0 {
			return 0, "", badSuffix
		}
		base := uint64(1024)
		switch unit[1:] {
		case "", "iB":
		case "B", "D":
			base = 1000
		default:
			return 0, "", badSuffix
		}
		mult = 1
		for range p + 1 {
			hi, lo := bits.Mul64(mult, base)
			if hi != 0 {
				return 0, "", ErrSizeOverflow
			}
			mult = lo
		}
	}
	hi, lo := bits.Mul64(n, mult)
	if hi != 0 {
		return 0, "", ErrSizeOverflow
	}
	return lo, unit, nil
}

// ParseThreshold parses -t SIZE: a size with du's units, negative to keep
// the entries at most that large (down to -2^63, as xstrtoimax reads it).
func ParseThreshold(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	n, _, err := ParseSize(strings.TrimPrefix(s, "-"))
	switch {
	case err != nil:
		return 0, err
	case neg && n == 0:
		return 0, ErrSizeInvalid // du's own words for -0, below
	case neg && n <= 1<<63:
		return int64(-n), nil
	case n > math.MaxInt64:
		return 0, ErrSizeOverflow
	}
	return int64(n), nil
}

// The ways a size argument fails, as gnulib's xstrtol tells them apart.
var (
	ErrSizeInvalid  = errors.New("invalid")
	ErrSizeSuffix   = errors.New("invalid suffix")
	ErrSizeOverflow = errors.New("too large")
)

// SizeMessage is du's message for the size argument arg of the option opt
// ("-B", "--threshold"...) that failed with err (xstrtol_fatal's words).
func SizeMessage(err error, opt, arg string) string {
	switch err {
	case ErrSizeSuffix:
		return message.SizeSuffix(opt, arg)
	case ErrSizeOverflow:
		return message.SizeTooLarge(opt, arg)
	}
	return message.InvalidSize(opt, arg)
}

var powerLetter = "KMGTPEZYRQ"

// exponentMax is the largest power of the base human_readable scales to.
const exponentMax = 10

// Format prints n bytes (or inodes, with a unit of 1) in the unit b, as
// gnulib's human_readable does with du's options: rounding up, and under
// autoscale one decimal below 10.
func (b BlockSize) Format(n uint64) string {
	amt, tenths, rounding := n, uint64(0), uint64(0)
	if b.Size > 1 {
		d := b.Size
		r10 := (n % d) * 10
		r2 := (r10 % d) * 2
		amt = n / d
		tenths = r10 / d
		switch {
		case r2 < d:
			rounding = b2u(r2 > 0)
		default:
			rounding = 2 + b2u(d < r2)
		}
	}
	exponent, frac := -1, ""
	if b.opts&humanAutoscale != 0 {
		amt, tenths, rounding, exponent, frac = b.autoscaled(amt, tenths, rounding)
	}
	if tenths+rounding > 0 {
		amt++
		if b.opts&humanAutoscale != 0 && amt == b.base() && exponent < exponentMax {
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

// autoscaled is amt, with its tenths and rounding (0: none; 1: below
// half; 2: half; 3: above half), divided by the base until it is below
// it, with one decimal (frac) below 10, and the power it was divided by.
func (b BlockSize) autoscaled(amt, tenths, rounding uint64) (_, _, _ uint64, exponent int, frac string) {
	base := b.base()
	if amt < base {
		return amt, tenths, rounding, 0, ""
	}
	for {
		r10 := (amt%base)*10 + tenths
		r2 := (r10%base)*2 + (rounding >> 1)
		amt /= base
		tenths = r10 / base
		if r2 < base {
			rounding = b2u(r2+rounding != 0)
		} else {
			rounding = 2 + b2u(base < r2+rounding)
		}
		exponent++
		if !(base <= amt && exponent < exponentMax) {
			break
		}
	}
	if amt < 10 {
		if rounding > 0 {
			tenths++
			rounding = 0
			if tenths == 10 {
				amt++
				tenths = 0
			}
		}
		if amt < 10 {
			frac = "." + strconv.FormatUint(tenths, 10)
			tenths, rounding = 0, 0
		}
	}
	return amt, tenths, rounding, exponent, frac
}

// suffix is the unit a size scaled by the power exponent of the base
// (-1: not scaled, b's own) is printed with.
func (b BlockSize) suffix(exponent int) string {
	if exponent < 0 {
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
		if b.opts&humanBase1024 != 0 && exponent > 0 {
			out += "i"
		}
		out += "B"
	}
	return out
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
