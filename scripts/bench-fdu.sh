#!/usr/bin/env bash
# bench-fdu.sh: fdu against GNU du, gdu and ncdu on the same trees, warm
# cache, with hyperfine; then peak memory with /usr/bin/time.
#
#   scripts/bench-fdu.sh [RUNS]
#
# Trees (made once under $FDU_BENCHDIR, default /tmp/frd-bench): the
# 100,000-entry source checkout, and dumac's deep tree (12 levels, 4,095
# directories of 100 files). Results go to bench-out/fdu-*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
dir=${FDU_BENCHDIR:-/tmp/frd-bench}
out=bench-out
mkdir -p "$out" "$dir"
need=()
for t in hyperfine gdu ncdu; do command -v $t >/dev/null || need+=("$t"); done
if [ ${#need[@]} -gt 0 ]; then apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; fi
# A release build: static, without cgo (pflag imports net, which would
# otherwise link libc and its per-thread arenas).
CGO_ENABLED=0 go build -trimpath -o "$out/fdu" ./cmd/fdu
for shape in source deep; do
	[ -d "$dir/fdu-$shape" ] || go run ./internal/treegen/maketree -shape "$shape" "$dir/fdu-$shape"
done
for shape in source deep; do
	t=$dir/fdu-$shape
	echo "## $shape tree: $(find "$t" | wc -l) entries"
	hyperfine -N --warmup 2 --runs "$runs" --export-markdown "$out/fdu-$shape-s.md" \
		"du -s $t" "$out/fdu -s $t" "gdu -n -p -s $t" "ncdu -0 -o /dev/null $t"
	hyperfine -N --warmup 2 --runs "$runs" --export-markdown "$out/fdu-$shape-full.md" \
		"du $t" "$out/fdu $t"
	for cmd in "du -s $t" "$out/fdu -s $t"; do
		for i in 1 2 3; do /usr/bin/time -f "%e s %U user %S sys %M KiB peak: $cmd" $cmd >/dev/null; done
	done 2>&1 | grep peak
done
