#!/usr/bin/env bash
# fdu-random-vs-du.sh: runs GNU du and fdu on the same small odd tree with
# random combinations of three options and one of several argument lists,
# and prints every combination whose stdout, stderr or exit status differ.
# fdu runs through a link named du first on PATH, as a user who replaces
# du would run it, and GNU du through another, so both name themselves
# "du". The equality suite in
# cmd/fdu/du_test.go has the fixed cases; this looks for new ones.
#
#   scripts/fdu-random-vs-du.sh [RUNS] [SEED]
#
# Each combination runs in each locale of $FDU_LOCALES (default: C,
# C.UTF-8, en_US.UTF-8, generated with locale-gen if missing, and
# xx_XX.UTF-8, a name no machine generates, which glibc runs in C); a
# locale that cannot be had is skipped with a line saying so. The tree's
# names include ones a UTF-8 locale prints as they are and ones it
# escapes.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/locales.sh
runs=${1:-500}
RANDOM=${2:-1}
read -ra locales <<<"${FDU_LOCALES:-C C.UTF-8 en_US.UTF-8 xx_XX.UTF-8}"
usable=()
for l in "${locales[@]}"; do
	if [ "$l" = xx_XX.UTF-8 ] && du_runs_in "$l"; then
		echo "$l: skipped: it is generated here, and so no test of a locale that is not"
	elif [ "$l" = xx_XX.UTF-8 ] || have_locale "$l"; then
		usable+=("$l")
	else
		echo "$l: skipped: the locale is not installed and locale-gen cannot generate it"
	fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$work/fdu" ./cmd/fdu
mkdir "$work/bin" "$work/gnu" && ln -s "$work/fdu" "$work/bin/du"
ln -s "$(command -v du)" "$work/gnu/du" # both run as "du", with LC_ALL for them alone
cd "$work"
mkdir -p t/src/sub t/other t/links t/sym t/big t/empty t/deep/a/b/c/d t/sym/loop/d
head -c 10000 /dev/urandom >t/src/a
head -c 5000 /dev/urandom >t/src/sub/b
echo hi >t/other/plain
ln t/src/a t/links/a
ln t/src/a t/other/hard
truncate -s 1M t/other/sparse
ln -s ../other/plain t/sym/to-file
ln -s ../src t/sym/to-dir
ln -s nowhere t/sym/dangling
ln -s .. t/sym/loop/d/up
ln -s ../../.. t/deep/a/b/c/d/loop
echo z >t/deep/a/b/c/d/z
for i in $(seq 50); do echo "$i" >"t/big/f$i"; done
printf 'x' >"t/other/odd
name"
touch "t/other/-dash" "t/other/q'uote"
mkdir -p "t/intl/名前-dir" "t/intl/ünï"
for n in "名前" "e$(printf '\314\201')" "zwj-$(printf '\342\200\215')" "$(printf '\377\376')" "c1-$(printf '\302\205')" \
	"emoji-$(printf '\360\237\230\200')" "new-$(printf '\360\237\253\250')" "it's-名"; do
	echo x >"t/intl/$n"
	ln -s nowhere "t/intl/名前-dir/$n"
done
mkfifo t/other/fifo
printf 't/src\0t/links\0t/src\0' >f0
printf 't/src\0\0t/other\0' >f0bad
printf 't/src\0t/sym/dangling\0t/nonexist\0' >f0c
printf 't/intl/名前-dir\0t/intl/\377\0t/\342\200\231\0' >f0intl

opts=(-a -s -c -S -l -L -x -b -k -m -h --si --apparent-size --inodes "-d 1" "-d 2"
	"-t 5000" "-t -5000" "-t 0" --time --time=ctime -0 -H -D -P "-B 3" -BM "-B 1K"
	"-B 1KB" --block-size=1000 --block-size=K "--exclude=*.x" --exclude=big
	--exclude=t/src "--exclude=*/sub" "-X /dev/null" "--time-style=+%Y"
	--time-style=iso --time-style=long-iso -lL -sL "--exclude=??" "--exclude=*名*" "--exclude=e?"
	--time-style=x)
args_lists=("t" "t/src t/links t" "t/sym/to-dir" "t t" "t/src t" "t/sym/to-dir t/src"
	"t/other/plain t/links/a" "t/nonexist t" "t/sym/dangling" "t/deep" t/sym t/other/fifo
	t/sym/loop --files0-from=f0 --files0-from=f0bad --files0-from=f0c t/intl "t/intl// t/名-nowhere"
	--files0-from=f0intl)
differ=0
for _ in $(seq "$runs"); do
	a=""
	for _ in 1 2 3; do a="$a ${opts[$((RANDOM % ${#opts[@]}))]}"; done
	a="$a ${args_lists[$((RANDOM % ${#args_lists[@]}))]}"
	for l in "${usable[@]}"; do
		dc=0 fc=0
		LC_ALL=$l PATH="$work/gnu:$PATH" du $a >d.out 2>d.err || dc=$?
		LC_ALL=$l PATH="$work/bin:$PATH" du $a >f.out 2>f.err || fc=$?
		if ! cmp -s d.out f.out || ! cmp -s d.err f.err || [ "$dc" != "$fc" ]; then
			echo "differs in $l:$a (exit $dc, $fc)"
			diff d.out f.out || true
			diff d.err f.err || true
			differ=$((differ + 1))
		fi
	done
done
echo "$runs runs in ${#usable[@]} locales (${usable[*]}), $differ differing"
[ "$differ" = 0 ]
