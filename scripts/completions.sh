#!/usr/bin/env bash
# completions.sh: fdu's and frd's completion scripts for bash, zsh and
# fish, made by the commands themselves from their option tables, named as
# each shell looks for them: fdu (bash), _fdu (zsh), fdu.fish (fish).
#
#   scripts/completions.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/completions.sh OUTDIR}
mkdir -p "$out"/bash "$out"/zsh "$out"/fish
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin" ./cmd/fdu ./cmd/frd
for prog in fdu frd; do
	"$bin/$prog" --completion=bash >"$out/bash/$prog"
	"$bin/$prog" --completion=zsh >"$out/zsh/_$prog"
	"$bin/$prog" --completion=fish >"$out/fish/$prog.fish"
done
echo "completions in $out: bash/ zsh/ fish/"
