#!/usr/bin/env bash
# man.sh: the man pages fdu.1 and frd.1, made from their one source each
# (cmd/fdu/fdu.1.md, cmd/frd/frd.1.md) by go-md2man, and gzipped beside
# them for the packages; then checked by groff, where it is installed,
# which must find nothing to warn about.
#
#   scripts/man.sh OUTDIR [VERSION]
#
# go-md2man runs at a pinned version from the module proxy, so that it is
# no dependency of the modules. VERSION, if given, is named in the pages'
# footers.
set -euo pipefail
cd "$(dirname "$0")/.."
md2man=github.com/cpuguy83/go-md2man/v2@v2.0.7
out=${1:?usage: scripts/man.sh OUTDIR [VERSION]}
version=${2:-}
mkdir -p "$out"
for prog in fdu frd; do
	page=$out/$prog.1
	go run "$md2man" -in "cmd/$prog/$prog.1.md" -out "$page"
	if [ -n "$version" ]; then
		sed -i "s/^\(\.TH .*\)\"flexreaddir\"/\1\"flexreaddir ${version//\//\\/}\"/" "$page"
	fi
	gzip -9 -n -c "$page" >"$page.gz" # -n: no name or time, the same bytes each time
	if command -v groff >/dev/null; then
		warnings=$(groff -ww -z -man "$page" 2>&1)
		if [ -n "$warnings" ]; then
			echo "groff warns about $page:"; echo "$warnings"; exit 1
		fi
	fi
done
echo "man pages in $out: fdu.1 frd.1 (and .gz)"
