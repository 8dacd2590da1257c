#!/usr/bin/env bash
# interleave.sh: time commands round by round (A B A B ...), each after the
# same prepare command, and print each one's median and mean wall time and
# the ratio of the first's median to each other's.
#
#   scripts/interleave.sh ROUNDS PREPARE CMD...
#
# hyperfine runs each command's runs in a block; on this machine's ext4
# the block that runs first was measured 10 to 25% faster than the same
# command in a later block (the file system's deferred work after each
# removal and sync falls unevenly), so ratios between blocks lean on the
# order. Interleaving puts every command in the same conditions.
set -euo pipefail
rounds=$1 prepare=$2
shift 2
declare -A times
for r in $(seq "$rounds"); do
	for i in $(seq 0 $(($# - 1))); do
		cmd=${*:$((i + 1)):1}
		sh -c "$prepare"
		start=$(date +%s%N)
		$cmd >/dev/null # split into words: the commands here need no quoting
		end=$(date +%s%N)
		times[$i]+="$(((end - start) / 1000)) "
	done
done
stat() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1; s+=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f %.1f\n", m/1000, s/NR/1000}'; }
read -r base _ <<<"$(stat <<<"${times[0]}")"
for i in $(seq 0 $(($# - 1))); do
	read -r med mean <<<"$(stat <<<"${times[$i]}")"
	printf 'median %8.1f ms  mean %8.1f ms  first/this %5.2fx  %s\n' "$med" "$mean" "$(echo "$base / $med" | bc -l)" "${*:$((i + 1)):1}"
done
