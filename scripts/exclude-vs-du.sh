#!/usr/bin/env bash
# exclude-vs-du.sh: runs GNU du and fdu with --exclude set to random short
# patterns over the names of TestFnmatchAsGNUDu (cmd/fdu/internal/du) and
# prints each pattern whose listings differ, with the names each excludes:
# a way to find how fdu's fnmatch parts from glibc's on malformed or odd
# patterns, each difference to become a row of that test's table.
#
#   scripts/exclude-vs-du.sh [RUNS] [SEED] [ALPHABET]
#
# Patterns are 1 to 6 characters of ALPHABET (default []!^-\abc*? ); the
# locale is C.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3000}
RANDOM=${2:-1}
alphabet=${3:-'[]!^-\abc*?'}
if ! du --version 2>/dev/null | grep -q GNU; then
	echo "exclude-vs-du.sh: needs GNU du" >&2
	exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd cmd && CGO_ENABLED=0 go build -trimpath -o "$work/fdu" ./fdu)
cd "$work"
mkdir m
(cd m && touch ']' a b c z '\' '[' '[a' 'a[' abc aXbYc ab '^' '!' 'a\' ./- d '[a-' '[\' '[a-\' 1 A : '[[-')
# listing DU PATTERN: what DU lists with --exclude=PATTERN, sorted.
listing() { LC_ALL=C "$1" -a --exclude="$2" m/ | cut -f2 | LC_ALL=C sort; }
# excluded LISTING: the names of m/ missing from LISTING.
excluded() {
	for n in m/*; do
		grep -qxF -- "$n" <<<"$1" || printf '%s ' "${n#m/}"
	done
}
differ=0
for _ in $(seq "$runs"); do
	p=
	for _ in $(seq $((RANDOM % 6 + 1))); do
		p+=${alphabet:RANDOM%${#alphabet}:1}
	done
	g=$(listing du "$p")
	f=$(listing ./fdu "$p")
	if [ "$g" != "$f" ]; then
		printf '%s\tGNU: %s\tfdu: %s\n' "$p" "$(excluded "$g")" "$(excluded "$f")"
		differ=$((differ + 1))
	fi
done
echo "$differ of $runs patterns differ"
[ "$differ" = 0 ]
