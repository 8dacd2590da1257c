#!/usr/bin/env bash
# bench-tree.sh: `frd clone` against GNU cp on the same trees, warm cache,
# with hyperfine: hard-link trees (`cp -al`) on ext4, and reflinks
# (`cp -a --reflink=always`) on a loop-mounted XFS made with reflink=1.
# Trees: the build-farm seed's two shapes (1,978 files of about 466 MB,
# 635 files of about 180 MB) and the 100,000-entry source checkout.
#
#   scripts/bench-tree.sh [RUNS]
#
# Needs root for the XFS loop mount. Results go to bench-out/tree-*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
dir=${TREE_BENCHDIR:-/tmp/frd-bench/tree}
out=bench-out
mkdir -p "$out" "$dir"
need=()
for t in hyperfine mkfs.xfs; do command -v $t >/dev/null || need+=("$t"); done
if [ ${#need[@]} -gt 0 ]; then apt-get update -qq && apt-get install -y -qq hyperfine xfsprogs >/dev/null; fi
CGO_ENABLED=0 go build -trimpath -o "$out/frd" ./cmd/frd
for shape in seed-large seed-small source; do
	[ -d "$dir/$shape" ] || go run ./internal/treegen/maketree -shape "$shape" "$dir/$shape" >/dev/null
done

# XFS with reflinks, holding copies of the same trees.
xfs=$dir/xfs
if ! mountpoint -q "$xfs"; then
	mkdir -p "$xfs"
	truncate -s 4G "$dir/xfs.img"
	mkfs.xfs -q -f -m reflink=1 "$dir/xfs.img"
	mount -o loop "$dir/xfs.img" "$xfs"
fi
for shape in seed-large seed-small source; do
	[ -d "$xfs/$shape" ] || cp -a "$dir/$shape" "$xfs/$shape"
done
sync

for shape in seed-large seed-small source; do
	src=$dir/$shape dst=$dir/$shape.clone
	echo "## hard links, $shape: $(find "$src" -type f | wc -l) files"
	hyperfine -N --warmup 1 --runs "$runs" --prepare "rm -rf $dst" \
		--export-markdown "$out/tree-hardlink-$shape.md" \
		"cp -al $src $dst" "$out/frd clone --method hardlink $src $dst"
	rm -rf "$dst"
	src=$xfs/$shape dst=$xfs/$shape.clone
	echo "## reflinks on XFS, $shape"
	hyperfine -N --warmup 1 --runs "$runs" --prepare "rm -rf $dst" \
		--export-markdown "$out/tree-reflink-$shape.md" \
		"cp -a --reflink=always $src $dst" "$out/frd clone --method reflink $src $dst"
	rm -rf "$dst"
done
