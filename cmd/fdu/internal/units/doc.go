// Package units reads and writes du's quantities: block sizes (-B, -h,
// --si, -k, -m and the BLOCK_SIZE variables: parsed, and sizes formatted
// as gnulib's human_readable does), -t's threshold, file time stamps
// beyond int64 nanoseconds, --time-style's formats and TZ's zones as
// glibc reads them. The command's parser and the report both use it.
//
// Formats change here only with du's. It imports fdu's message package
// for du's words about a bad argument, and nothing else of fdu's.
package units
