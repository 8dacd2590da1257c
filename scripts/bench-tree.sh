#!/usr/bin/env bash
# bench-tree.sh: `frd clone` against GNU cp on the same trees, warm cache,
# with hyperfine: hard-link trees (`cp -al`) on ext4, and reflinks
# (`cp -a --reflink=always`) on a loop-mounted XFS made with reflink=1.
# Trees: the build-farm seed's two shapes (1,978 files of about 466 MB,
# 635 files of about 180 MB) and the 100,000-entry source checkout.
#
#   scripts/bench-tree.sh [RUNS]
#
# RUNS (default 10) is for the 100,000-entry tree; the two seed trees, where
# one clone takes 5 to 50 ms, get 4 times as many. Before each run the
# previous copy is removed and `sync` waits for the file system's deferred
# work (the journal, XFS's inode inactivation), so that it lands in neither
# command's time. Needs root for the XFS loop mount. Results go to
# bench-out/tree-*.md and .json; the summary at the end gives the ratios
# of the means and of the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
dir=${TREE_BENCHDIR:-/tmp/frd-bench/tree}
out=bench-out
mkdir -p "$out" "$dir"
need=()
for t in hyperfine mkfs.xfs jq; do command -v $t >/dev/null || need+=("$t"); done
if [ ${#need[@]} -gt 0 ]; then apt-get update -qq && apt-get install -y -qq hyperfine xfsprogs jq >/dev/null; fi
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

bench() { # name runs baseline-command frd-command dst
	hyperfine -N --warmup 2 --runs "$2" --prepare "sh -c 'rm -rf $5; sync'" \
		--export-markdown "$out/tree-$1.md" --export-json "$out/tree-$1.json" "$3" "$4"
	# The same, interleaved round by round (see scripts/interleave.sh).
	scripts/interleave.sh "$2" "rm -rf $5; sync" "$3" "$4" | tee "$out/tree-$1-interleaved.txt"
	rm -rf "$5"
}
for shape in seed-large seed-small source; do
	n=$runs
	[ "$shape" = source ] || n=$((4 * runs))
	src=$dir/$shape dst=$dir/$shape.clone
	echo "## hard links, $shape: $(find "$src" -type f | wc -l) files"
	bench "hardlink-$shape" "$n" "cp -al $src $dst" "$out/frd clone --method hardlink $src $dst" "$dst"
	src=$xfs/$shape dst=$xfs/$shape.clone
	echo "## reflinks on XFS, $shape"
	bench "reflink-$shape" "$n" "cp -a --reflink=always $src $dst" "$out/frd clone --method reflink $src $dst" "$dst"
done

echo "## frd clone faster than cp by (hyperfine: ratio of means, ratio of medians; interleaved: ratio of medians)"
for f in "$out"/tree-hardlink-*.json "$out"/tree-reflink-*.json; do
	jq -r --arg f "$(basename "$f" .json)" \
		'"\($f)\t\(.results[0].mean/.results[1].mean*100|round/100)x\t\(.results[0].median/.results[1].median*100|round/100)x"' "$f" | tr '\n' '\t'
	awk 'NR==2 {print $8}' "${f%.json}-interleaved.txt"
done
