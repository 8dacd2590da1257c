#!/usr/bin/env bash
# bench-snapshot.sh: frd diff against git status and mtree -f on the Linux
# kernel's source, warm, side by side in one hyperfine run; then the
# snapshot's size per entry, and the peak memory of frd diff against fdu -s
# (/usr/bin/time -v).
#
#   scripts/bench-snapshot.sh [RUNS]        (as root, to apt-get what is missing)
#
# The tree (Debian's linux-source, extracted, git init and committed) is
# kept in $FRD_SNAPBENCH (default /tmp/frd-bench-snapshot) for the next run.
# frd diff is timed with no change (a snapshot of the tree as it is) and
# with 100 changed files (a snapshot from before they changed); git status
# and mtree -f see the tree with the 100 files changed. git status runs
# with the untracked cache on and off, mtree with the keywords type, mode,
# uid, gid, nlink, size, time and link (frd records those and ctime and
# inode too). .git is left out of frd's snapshot and mtree's spec.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
work=${FRD_SNAPBENCH:-/tmp/frd-bench-snapshot}
out=bench-out
mkdir -p "$out" "$work"

need() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need hyperfine hyperfine
need mtree mtree-netbsd
need git git
[ -x /usr/bin/time ] || apt-get install -y -qq time >/dev/null
ls /usr/src/linux-source-*.tar.* >/dev/null 2>&1 || apt-get install -y -qq linux-source >/dev/null

tree=$work/linux
if [ ! -d "$tree/.git" ]; then
	rm -rf "$tree"
	mkdir -p "$tree"
	tar -xf "$(ls /usr/src/linux-source-*.tar.* | head -1)" -C "$tree" --strip-components=1
	# Debian's tarball ignores everything at its top ("/*"): without that
	# git status looks for untracked files as it would in a checkout.
	sed -i '/^\/\*$/d; /^!\/debian\/$/d' "$tree/.gitignore"
	git -C "$tree" init -q
	git -C "$tree" add -A
	git -C "$tree" -c user.name=bench -c user.email=bench@localhost commit -qm tree
	git -C "$tree" gc -q # a pack, not 80,000 loose objects
fi
git -C "$tree" checkout -q -- . # back to the commit: the 100 files of an earlier run

go build -o "$out/frd" ./cmd/frd
go build -o "$out/fdu" ./cmd/fdu
frd=$out/frd

# The snapshot and mtree spec from before the change, then 100 files
# changed (a byte appended), then a snapshot of the tree as it is. Each
# snapshot waits out its racy window first.
sleep 1
"$frd" snap --exclude /.git "$tree" -o "$work/before.snap"
echo .git >"$work/mtree.exclude"
mtree -c -k type,mode,uid,gid,nlink,size,time,link -X "$work/mtree.exclude" -p "$tree" >"$work/before.mtree"
# (awk stops at 100 itself: a head closing the pipe early fails it.)
git -C "$tree" ls-files | awk '/\.c$/ && ++n % 200 == 1 && k++ < 100' | while read -r f; do
	printf '\n' >>"$tree/$f"
done
sleep 1
"$frd" snap --exclude /.git "$tree" -o "$work/after.snap"
git -C "$tree" config core.fsmonitor false
git -C "$tree" update-index --untracked-cache
git -C "$tree" -c core.untrackedCache=true status --porcelain >/dev/null # fills the cache
sleep 1

nchanged=$("$frd" diff "$work/before.snap" | wc -l || true)
echo "frd diff before.snap reports $nchanged changes; git status $(git -C "$tree" status --porcelain | wc -l)"

hyperfine -N -i --warmup 3 --runs "$runs" --export-json "$out/snapshot.json" --export-markdown "$out/snapshot.md" \
	-n "frd diff, no change" "$frd diff $work/after.snap $tree" \
	-n "frd diff, 100 changed" "$frd diff $work/before.snap $tree" \
	-n "git status, untracked cache" "git -C $tree -c core.untrackedCache=true status --porcelain" \
	-n "git status, no untracked cache" "git -C $tree -c core.untrackedCache=false status --porcelain" \
	-n "mtree -f" "mtree -f $work/before.mtree -X $work/mtree.exclude -p $tree"

# Entries below the root, .git and what it holds left out.
entries=$(($("$frd" find -c "$tree") - $(find "$tree/.git" | wc -l) - 1))
size=$(stat -c %s "$work/after.snap")
# (frd diff exits 1 when something changed: not a failure here.)
rss() { { /usr/bin/time -v "$@" 2>&1 >/dev/null || true; } | awk -F': ' '/Maximum resident set size/ {print $2}'; }
rss_diff=$(rss "$frd" diff "$work/before.snap" "$tree")
rss_fdu=$(rss "$out/fdu" -s --exclude=.git "$tree")

python3 - "$out/snapshot.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
for frd in ("frd diff, no change", "frd diff, 100 changed"):
    for other in ("git status, untracked cache", "git status, no untracked cache", "mtree -f"):
        print(f"{other} / {frd}: {r[other] / r[frd]:.2f}x")
PY
echo "entries (without .git): $entries; snapshot $size bytes: $(python3 -c "print(round($size/$entries, 2))") bytes an entry"
echo "peak RSS: frd diff ${rss_diff} KiB, fdu -s ${rss_fdu} KiB ($(python3 -c "print(round($rss_diff/$rss_fdu,2))")x)"
echo "machine: $(nproc) CPUs, Linux $(uname -r), $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD)"
