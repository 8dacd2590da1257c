#!/usr/bin/env bash
# callgrind-frd.sh: user-space instructions per entry for listing a directory
# of 1,000 regular files, frd against os.ReadDir + Info, counted by valgrind's
# callgrind (instructions, not seconds: repeatable whatever the machine is
# doing). Each listing program runs twice, 10 and 60 listings; the difference
# of the totals over the 50 extra listings' entries leaves out start-up and
# exit. The garbage collector's share varies from run to run, so each figure
# is the median of three such pairs.
#
#   scripts/callgrind-frd.sh [DIR]     DIR defaults to the benchmarks' 1,000-file directory
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
out=bench-out
mkdir -p "$out"
benchdir=${FRD_BENCHDIR:-${TMPDIR:-/tmp}/frd-bench}
dir=${1:-$benchdir/files-1000}
if [ ! -d "$dir" ]; then
	go test -run '^$' -bench '^BenchmarkList$/^n=1000$/impl=frd.Handle' -benchtime 1x -frd.benchdir "$benchdir" ./frd >/dev/null
fi
n=$(find "$dir" -mindepth 1 -maxdepth 1 | wc -l)
go build -o "$out/count" ./frd/testdata/callgrind
total() { # impl listings
	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$out/count" -impl "$1" -n "$2" "$dir" 2>&1 | sed -n 's/.*Collected : //p'
}
for impl in ${IMPLS:-os frd frd-fast frd-readdir frd-names}; do
	per=()
	for _ in 1 2 3; do
		a=$(total "$impl" 10)
		b=$(total "$impl" 60)
		per+=($(( (b - a) / (50 * n) )))
	done
	median=$(printf '%s\n' "${per[@]}" | sort -n | sed -n 2p)
	echo "$impl: $median instructions per entry, median of ${per[*]} ($n entries)"
done
