#!/usr/bin/env bash
# bench-scale.sh: fdu at 10^6, 10^7 and 10^8 entries, beside GNU du, ncdu
# and gdu, in one table of time, peak memory (VmHWM) and bytes an entry:
#   - the trees are synthfs mounts (scripts/synthfs.sh: FUSE, each entry
#     computed from its inode), treegen's million shape a level deeper per
#     power of ten, read once by du -s before the runs (the kernel then
#     caches their entries for an hour), but at 10^8, whose cache (about
#     100 GiB) no machine here holds: its runs all read through FUSE;
#   - the browsers (fdu -i, fdu -f of fdu -o's export, ncdu, gdu) run in a
#     real terminal (tmux 100x30): the time to their first screen, and
#     their VmHWM once it shows;
#   - the others (fdu -o, -s, -a and plain; du -s, -a and plain; gdu -n -p)
#     run under /usr/bin/time: wall time and maximum RSS (VmHWM);
#   - bytes an entry: VmHWM less the same command's on a 10-entry tree,
#     over the entries;
#   - at 10^8 fdu alone (-i, -o, -f, -s).
# The table goes into BENCHMARKS.md between "<!-- bench-scale -->" and
# "<!-- /bench-scale -->", under the command, the machine and the date.
#
#   scripts/bench-scale.sh [SIZES]   (as root; default "1000000 10000000 100000000")
#
# The kernel keeps about 1 KiB of cache an entry looked up on a FUSE tree
# (reclaimable; dropped at each unmount): 10 GiB at 10^7. At 10^8 it cycles
# through that cache, and fdu -i holds about 3 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-1000000 10000000 100000000}
dir=${BENCH_DIR:-/tmp/frd-bench}/scale
out=bench-out
mkdir -p "$out" "$dir"
[ "$(id -u)" = 0 ] || { echo "bench-scale.sh: run as root (FUSE mounts)" >&2; exit 1; }
for t in tmux ncdu gdu /usr/bin/time; do
	command -v $t >/dev/null || { apt-get update -qq && apt-get install -y -qq tmux ncdu gdu time >/dev/null; break; }
done
CGO_ENABLED=0 go build -trimpath -o "$out/fdu" ./cmd/fdu
fdu=$(realpath "$out/fdu")
mnt=$dir/mnt sock=$dir/tmux.sock
cleanup() {
	tmux -S "$sock" kill-server 2>/dev/null || true
	mountpoint -q "$mnt" && scripts/synthfs.sh stop "$mnt"
	true
}
trap cleanup EXIT
small=$dir/ten # the base: 10 entries
mkdir -p "$small" && for i in 1 2 3 4 5 6 7 8 9; do echo x >"$small/f$i"; done

# screen CMD...: the milliseconds from starting CMD in tmux to its first
# screen (the footer's "Total disk usage"), and its VmHWM then, in KiB.
screen() {
	tmux -S "$sock" kill-server 2>/dev/null || true
	local start pid
	start=$(date +%s%N)
	tmux -S "$sock" -f /dev/null new-session -d -s b -x 100 -y 30 "exec $*"
	pid=$(tmux -S "$sock" display -p -t b '#{pane_pid}')
	until tmux -S "$sock" capture-pane -p -t b 2>/dev/null | grep -q 'Total disk usage'; do
		kill -0 "$pid" 2>/dev/null || { echo "no first screen from: $*" >&2; echo "- -"; return; }
		sleep 0.05
	done
	local ms=$((($(date +%s%N) - start) / 1000000))
	sleep 0.5 # the screen drawn, and nothing more read
	echo "$ms $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")"
	tmux -S "$sock" kill-server
}

# timed CMD...: its wall milliseconds and maximum RSS in KiB.
timed() {
	local f
	f=$(mktemp)
	/usr/bin/time -o "$f" -f '%e %M' "$@" >/dev/null 2>&1 || true
	awk '{printf "%d %d\n", $1 * 1000, $2}' "$f"
	rm -f "$f"
}

# row NAME ENTRIES "MS KIB" BASE_KIB: one line of the table.
rows=$out/scale-rows.md
: >"$rows"
row() {
	local name=$1 n=$2 ms kib base=$4
	read -r ms kib <<<"$3"
	if [ "$ms" = - ]; then
		printf '| %s | %s | failed | | |\n' "$name" "$n" >>"$rows"
		return
	fi
	printf '| %s | %s | %.1f s | %.1f MiB | %.1f |\n' "$name" "$n" "$(echo "$ms / 1000" | bc -l)" \
		"$(echo "$kib / 1024" | bc -l)" "$(echo "($kib - $base) * 1024 / $n" | bc -l)" >>"$rows"
}

# The bases, on 10 entries.
declare -A base
read -r _ base[fdu-i] <<<"$(screen "$fdu" -i "$small")"
"$fdu" -o "$dir/ten.json" "$small"
read -r _ base[fdu-f] <<<"$(screen "$fdu" -f "$dir/ten.json")"
read -r _ base[ncdu] <<<"$(screen ncdu --ignore-config "$small")"
read -r _ base[gdu] <<<"$(screen gdu --config-file /dev/null "$small")"
read -r _ "base[fdu-o]" <<<"$(timed "$fdu" -o /dev/null "$small")"
read -r _ "base[fdu-s]" <<<"$(timed "$fdu" -s "$small")"
read -r _ "base[fdu-a]" <<<"$(timed "$fdu" -a "$small")"
read -r _ "base[fdu]" <<<"$(timed "$fdu" "$small")"
read -r _ "base[du-s]" <<<"$(timed du -s "$small")"
read -r _ "base[du-a]" <<<"$(timed du -a "$small")"
read -r _ "base[du]" <<<"$(timed du "$small")"
read -r _ "base[gdu-np]" <<<"$(timed gdu --config-file /dev/null -n -p "$small")"

for n in $sizes; do
	started=$(scripts/synthfs.sh start "$mnt" "$n")
	if [ "$n" -le 10000000 ]; then
		entries=$(du --inodes -s "$mnt" | awk '{print $1 - 1}') # and the kernel's cache filled
	else # beyond what the kernel can cache: every run reads through FUSE
		entries=$(awk '{print $2}' <<<"$started") # the root aside, as du's less one
	fi
	export_file=$dir/export-$n.json
	row "fdu -o FILE" "$entries" "$(timed "$fdu" -o "$export_file" "$mnt")" "${base[fdu-o]}"
	row "fdu -i (first screen)" "$entries" "$(screen "$fdu" -i "$mnt")" "${base[fdu-i]}"
	row "fdu -f FILE (first screen)" "$entries" "$(screen "$fdu" -f "$export_file")" "${base[fdu-f]}"
	row "fdu -s" "$entries" "$(timed "$fdu" -s "$mnt")" "${base[fdu-s]}"
	if [ "$n" -le 10000000 ]; then
		row "du -s" "$entries" "$(timed du -s "$mnt")" "${base[du-s]}"
		row "fdu -a" "$entries" "$(timed "$fdu" -a "$mnt")" "${base[fdu-a]}"
		row "du -a" "$entries" "$(timed du -a "$mnt")" "${base[du-a]}"
		row "fdu" "$entries" "$(timed "$fdu" "$mnt")" "${base[fdu]}"
		row "du" "$entries" "$(timed du "$mnt")" "${base[du]}"
		row "gdu -n -p (its scan)" "$entries" "$(timed gdu --config-file /dev/null -n -p "$mnt")" "${base[gdu-np]}"
		row "ncdu 1.18 (first screen)" "$entries" "$(screen ncdu --ignore-config "$mnt")" "${base[ncdu]}"
		row "gdu (first screen)" "$entries" "$(screen gdu --config-file /dev/null "$mnt")" "${base[gdu]}"
	fi
	rm -f "$export_file"
	scripts/synthfs.sh stop "$mnt"
done

md=$out/scale.md
{
	echo "Made by \`scripts/bench-scale.sh $sizes\` on $(date -u +%F): $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), $(free -g | awk '/Mem:/ {print $2}') GiB, Linux $(uname -r), $(go env GOVERSION); $(du --version | head -1), ncdu $(ncdu -v | awk '{print $2}'), gdu $(gdu --version | awk '/Version/ {print $2}'). Trees: synthfs mounts, read once before the runs; bytes an entry: VmHWM less the same command's on 10 entries, over the entries."
	echo
	echo "| command | entries | time | VmHWM | bytes an entry |"
	echo "|---|---:|---:|---:|---:|"
	cat "$rows"
} >"$md"
awk -v f="$md" '
	/^<!-- bench-scale -->$/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
	/^<!-- \/bench-scale -->$/ { skip = 0 }
	!skip { print }
' BENCHMARKS.md >"$out/BENCHMARKS.md"
if grep -q '^<!-- bench-scale -->$' BENCHMARKS.md; then
	cp "$out/BENCHMARKS.md" BENCHMARKS.md
else
	echo "BENCHMARKS.md has no <!-- bench-scale --> line: the table is in $md" >&2
fi
cat "$md"
