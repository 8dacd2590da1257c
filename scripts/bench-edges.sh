#!/usr/bin/env bash
# bench-edges.sh: the figures of the speed-at-the-edges work in one run, each
# table under the command that made it:
#   1. frd.ReadDir, frd.Handle and names-only listings of 10 and 1,000 files
#      against os.ReadDir and the C floor (scripts/bench-frd.sh, benchstat);
#   2. names-only walks of the Linux kernel source: frd find -c (prints only
#      the count), frd find, bfs, fd and GNU find (hyperfine);
#   3. one directory of 1,000,000 files on tmpfs: fdu -s and -a against
#      du's, interleaved (scripts/interleave.sh), and their peak memory;
#   4. cold caches (dropped before every run) on the kernel source on the
#      root file system and on ext4 and XFS loop images: du -s, fdu -s,
#      gdu and the C cold floor (walk/testdata/coldfloor.c: the least a
#      parallel walk does) (hyperfine --prepare); then the same warm.
# It builds the trees itself (kept under BENCH_DIR, default /tmp/frd-bench),
# and writes its tables to bench-out/edges.md, whose parts belong to the
# BENCHMARKS.md sections on the lister, names-only walks, the 1,000,000-file
# directory and cold caches.
#
#   scripts/bench-edges.sh [ROUNDS]     (as root; default 6)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-6}
dir=${BENCH_DIR:-/tmp/frd-bench}
out=bench-out
mkdir -p "$out" "$dir"
[ "$(id -u)" = 0 ] || { echo "bench-edges.sh: run as root (drop_caches, mounts)" >&2; exit 1; }
need=()
for t in hyperfine gdu bfs fdfind mkfs.xfs mkfs.ext4 strace /usr/bin/time; do command -v $t >/dev/null || need+=("$t"); done
if [ ${#need[@]} -gt 0 ]; then
	pkgs=$(printf '%s\n' "${need[@]}" | sed 's/^fdfind$/fd-find/; s/^mkfs.xfs$/xfsprogs/; s/^mkfs.ext4$/e2fsprogs/; s|^/usr/bin/time$|time|')
	apt-get update -qq && apt-get install -y -qq $pkgs >/dev/null
fi
command -v benchstat >/dev/null || go install golang.org/x/perf/cmd/benchstat@latest
PATH=$PATH:$(go env GOPATH)/bin
CGO_ENABLED=0 go build -trimpath -o "$out/fdu" ./cmd/fdu
CGO_ENABLED=0 go build -trimpath -o "$out/frd" ./cmd/frd
cc -O2 -pthread -o "$out/coldfloor" walk/testdata/coldfloor.c
fdu=$out/fdu frd=$out/frd

# The trees.
kernel=$dir/kernel
if [ ! -d "$kernel" ]; then
	ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 || apt-get install -y -qq linux-source >/dev/null
	mkdir -p "$kernel"
	tar -xJf "$(ls /usr/src/linux-source-*.tar.xz | sort -V | tail -1)" -C "$kernel" --strip-components=1
fi
huge=$dir/edges-tmpfs
if ! mountpoint -q "$huge"; then
	mkdir -p "$huge"
	mount -t tmpfs -o size=1g,nr_inodes=2m tmpfs "$huge"
fi
if [ ! -d "$huge/m" ] || [ "$(ls -f "$huge/m" | wc -l)" != 1000002 ]; then # with . and ..
	rm -rf "$huge/m" && mkdir "$huge/m"
	(cd "$huge/m" && seq -f 'f%07.0f' 1000000 | xargs touch)
fi
for fs in ext4 xfs; do
	img=$dir/edges-$fs.img mnt=$dir/edges-$fs
	if ! mountpoint -q "$mnt"; then
		if [ ! -f "$img" ]; then
			truncate -s 4g "$img"
			case $fs in
			ext4) mkfs.ext4 -q -F "$img" ;;
			xfs) mkfs.xfs -q -f "$img" ;;
			esac
		fi
		mkdir -p "$mnt"
		mount -o loop "$img" "$mnt"
	fi
	[ -f "$mnt/kernel.done" ] || { rm -rf "$mnt/kernel"; cp -a "$kernel" "$mnt/kernel" && touch "$mnt/kernel.done"; }
done

md=$out/edges.md
{
	echo "Made by \`scripts/bench-edges.sh $rounds\` on $(date -u +%Y-%m-%d): $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), $(free -g | awk '/Mem:/ {print $2}') GiB, Linux $(uname -r), $(go version | cut -d' ' -f3); $(du --version | head -1), gdu $(gdu --version 2>&1 | sed -n 's/^Version:[[:space:]]*//p' | head -1), $(bfs --version | head -1), $(fdfind --version)."
	echo
} >"$md"
section() { printf '\n### %s\n\n' "$*" >>"$md"; }
command_line() { printf '`%s`\n\n' "$*" >>"$md"; }
hf() { # hyperfine ARGS... : its markdown table into the file
	hyperfine -N --style basic --export-markdown "$out/hf.md" "$@" >&2
	cat "$out/hf.md" >>"$md"
}

section "1. frd.ReadDir, frd.Handle and names-only listings"
command_line "scripts/bench-frd.sh $rounds '10 1000'"
{
	echo '```'
	scripts/bench-frd.sh "$rounds" '10 1000' 2>/dev/null | grep -v '^goos\|^goarch\|^pkg\|^cpu'
	echo '```'
} >>"$md"

section "2. Names-only walks of the kernel source ($(find "$kernel" | wc -l) entries), warm"
cmds=("$frd find -c $kernel" "$frd find $kernel" "bfs $kernel" "fdfind -HI --no-ignore . $kernel" "find $kernel")
command_line "hyperfine -N --warmup 3 --runs $((rounds * 4)) $(printf '"%s" ' "${cmds[@]}")"
hf --warmup 3 --runs $((rounds * 4)) "${cmds[@]}"
{
	echo
	echo "\`strace -f -c -e trace=statx,newfstatat $frd find -c $kernel\`, the calls besides the DIR's own lstat: $(strace -f -c -e trace=statx,newfstatat "$frd" find -c "$kernel" 2>&1 >/dev/null | awk '/statx|newfstatat/ {n+=$4} END {print n-1}')."
} >>"$md"

section "3. One directory of 1,000,000 files on tmpfs"
m=$huge/m
cmds=("du -s $m" "$fdu -s $m" "du -a $m" "$fdu -a $m")
command_line "scripts/interleave.sh $rounds true $(printf '"%s" ' "${cmds[@]}")"
{
	echo '```'
	scripts/interleave.sh "$rounds" true "${cmds[@]}"
	echo '```'
	echo
	echo "Peak memory, \`/usr/bin/time -f %M\`, median of 3 (KiB):"
	echo
	echo "| command | peak KiB |"
	echo "|---|---:|"
	for c in "${cmds[@]}"; do
		p=$(for _ in 1 2 3; do /usr/bin/time -f %M $c 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 2p)
		echo "| \`$c\` | $p |"
	done
} >>"$md"

section "4. Cold caches: the kernel source, caches dropped before every run"
drop='sh -c "sync; echo 3 > /proc/sys/vm/drop_caches"'
for t in "$kernel" "$dir/edges-ext4/kernel" "$dir/edges-xfs/kernel"; do
	fstype=$(findmnt -no FSTYPE -T "$t")
	cmds=("du -s $t" "$fdu -s $t" "gdu -n -p -s $t" "$out/coldfloor -j 8 $t")
	echo "**$t** ($fstype):" >>"$md"
	echo >>"$md"
	command_line "hyperfine -N --runs $rounds --prepare '$drop' $(printf '"%s" ' "${cmds[@]}")"
	hf --runs "$rounds" --prepare "$drop" "${cmds[@]}"
	echo >>"$md"
done
section "4b. The same, warm"
for t in "$kernel" "$dir/edges-ext4/kernel" "$dir/edges-xfs/kernel"; do
	cmds=("du -s $t" "$fdu -s $t" "gdu -n -p -s $t")
	command_line "hyperfine -N --warmup 3 --runs $((rounds * 4)) $(printf '"%s" ' "${cmds[@]}")"
	hf --warmup 3 --runs $((rounds * 4)) "${cmds[@]}"
	echo >>"$md"
done

echo "the tables: $md (for BENCHMARKS.md's sections on the lister, names-only walks, the huge directory and cold walks)" >&2
cat "$md"
