#!/usr/bin/env bash
# bench-browse.sh: fdu's interactive mode against ncdu and gdu, on the
# Linux kernel source and on a tree of 1,000,000 files:
#   1. the scan, through each tool's export (fdu -o, ncdu -o, gdu -n -o),
#      in one hyperfine run, and gdu -n without an export;
#   2. the time from start to the browser's first screen, and the
#      browser's peak memory (VmHWM) once that screen shows, each tool in
#      a real terminal (tmux), the tools interleaved round by round.
#
#   scripts/bench-browse.sh [ROUNDS]    (default 10; needs root for apt)
#
# Warm cache: each tree is read once before the runs. BENCH_DIR (default
# /tmp/frd-bench) holds the trees between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
dir=${BENCH_DIR:-/tmp/frd-bench}
mkdir -p "$dir"
for t in tmux ncdu gdu hyperfine; do
	command -v $t >/dev/null || apt-get install -y -qq tmux ncdu gdu hyperfine >/dev/null
done
out=$(mktemp -d)
trap 'rm -rf "$out"; tmux -S "$out/sock" kill-server 2>/dev/null || true' EXIT
CGO_ENABLED=0 go build -trimpath -o "$out/fdu" ./cmd/fdu

kernel=$dir/kernel
if [ ! -d "$kernel" ]; then
	[ -e /usr/src/linux-source-*.tar.xz ] || apt-get install -y -qq linux-source >/dev/null
	mkdir -p "$kernel"
	tar -xJf /usr/src/linux-source-*.tar.xz -C "$kernel" --strip-components=1
fi
[ -d "$dir/million" ] || go run ./internal/treegen/maketree -shape million "$dir/million" >/dev/null

# first_screen CMD...: runs CMD in a 100x30 tmux window, waits for the
# browser's footer, prints the milliseconds that took and the process's
# VmHWM in KiB.
first_screen() {
	local sock=$out/sock start pid ms
	tmux -S "$sock" kill-server 2>/dev/null || true
	start=$(date +%s%N)
	tmux -S "$sock" -f /dev/null new-session -d -s b -x 100 -y 30 "$*"
	pid=$(tmux -S "$sock" display -p -t b '#{pane_pid}')
	until tmux -S "$sock" capture-pane -p -t b 2>/dev/null | grep -q 'Total disk usage'; do
		if [ $((($(date +%s%N) - start) / 1000000000)) -gt 300 ]; then
			echo "no first screen from: $*" >&2
			exit 1
		fi
		sleep 0.01
	done
	ms=$((($(date +%s%N) - start) / 1000000))
	sleep 0.5 # the screen drawn, and nothing more scanned
	echo "$ms $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")"
	tmux -S "$sock" kill-server
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }

for tree in "$kernel" "$dir/million"; do
	n=$(find "$tree" | wc -l)
	echo "## $tree ($n entries)"
	echo
	echo '```'
	echo "hyperfine -N -w 2 -r $rounds 'fdu -o /dev/null T' 'ncdu -o /dev/null T' 'gdu -n -o /dev/null T' 'gdu -n -p T'"
	hyperfine -N -w 2 -r "$rounds" --style basic \
		"$out/fdu -o /dev/null $tree" \
		"ncdu --ignore-config -o /dev/null $tree" \
		"gdu --config-file /dev/null -n -o /dev/null $tree" \
		"gdu --config-file /dev/null -n -p $tree" 2>&1 | grep -Ev '^\s*$|Range'
	echo '```'
	echo
	declare -A ms hwm
	names=(fdu ncdu gdu)
	cmds=("$out/fdu -i $tree" "ncdu --ignore-config $tree" "gdu --config-file /dev/null $tree")
	for r in $(seq "$rounds"); do
		for i in 0 1 2; do
			read -r m h <<<"$(first_screen "${cmds[$i]}")"
			ms[$i]+="$m "
			hwm[$i]+="$h "
		done
	done
	echo "| $rounds rounds, interleaved, in tmux 100x30 | to the first screen (median) | peak memory, VmHWM (median) |"
	echo "|---|---|---|"
	for i in 0 1 2; do
		m=$(tr ' ' '\n' <<<"${ms[$i]}" | grep . | median)
		h=$(tr ' ' '\n' <<<"${hwm[$i]}" | grep . | median)
		printf '| %s | %s ms | %.1f MB |\n' "${names[$i]}" "$m" "$(echo "$h / 1024" | bc -l)"
	done
	unset ms hwm
	echo
done
