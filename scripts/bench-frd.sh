#!/usr/bin/env bash
# bench-frd.sh: frd's listing benchmarks against the standard library and the
# C floor (frd/testdata/floor.c), interleaved round by round in one run, then
# compared by benchstat. Warm cache: the directories are made once and kept.
#
#   scripts/bench-frd.sh [COUNT] [SIZES]     e.g. scripts/bench-frd.sh 6 '10 1000'
#
# Writes bench-out/frd.txt (raw) and prints the benchstat tables.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-6}
sizes=${2:-10 1000 10000 100000}
out=bench-out
mkdir -p "$out"
benchdir=${FRD_BENCHDIR:-${TMPDIR:-/tmp}/frd-bench}

command -v benchstat >/dev/null || go install golang.org/x/perf/cmd/benchstat@latest
PATH=$PATH:$(go env GOPATH)/bin
cc -O2 -pthread -o "$out/floor" frd/testdata/floor.c
go test -c -o "$out/frd.test" ./frd

: >"$out/frd.txt"
for round in $(seq "$count"); do
	echo "round $round of $count" >&2
	# Each size's Go benchmarks and its C floor side by side, so a slow
	# spell of the machine falls on both.
	for n in $sizes; do
		"$out/frd.test" -test.run '^$' -test.bench "^Benchmark(List|Names)\$/^n=$n\$/" -test.benchmem \
			-frd.benchdir "$benchdir" >>"$out/frd.txt"
		"$out/floor" -name "BenchmarkList/n=$n/impl=C-floor-2" "$benchdir/files-$n" >>"$out/frd.txt"
		"$out/floor" -names 1 -name "BenchmarkNames/n=$n/impl=C-floor-2" "$benchdir/files-$n" >>"$out/frd.txt"
	done
done
# Three tables: full listings against the standard library, the Go walker's
# listing against the C floor making the same system calls, names only.
stat() { benchstat -row /n -col "${2:-/impl}" -filter "$1" "$out/frd.txt"; }
echo "## Full listing, against os.ReadDir + Info"
stat '.name:List -/impl:C-floor -/impl:frd.Lister+Rewind -/impl:frd.HandleFast'
echo "## Full listing, against the C floor"
stat '.name:List (/impl:C-floor OR /impl:frd.Handle OR /impl:frd.HandleFast)' '/impl@(C-floor frd.Handle frd.HandleFast)'
echo "## Names and types only"
stat '.name:Names' '/impl@(os.File.ReadDir frd.Names frd.NamesHandle C-floor)'
