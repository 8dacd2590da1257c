#!/usr/bin/env bash
# package-check.sh: the release packages build and install. goreleaser
# (pinned, installed into a tools directory with go install) checks
# .goreleaser.yaml and makes a snapshot release: every binary, archive and
# package, nothing published. Then, as root with dpkg, the .deb is
# installed and fdu --version, man -w fdu and a bash completion are tried,
# and the package is removed.
#
#   scripts/package-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=v2.15.1
tools=$(go env GOPATH)/tools/goreleaser-$version
goreleaser=$tools/goreleaser
if [ ! -x "$goreleaser" ]; then
	echo "installing goreleaser $version into $tools"
	GOBIN=$tools GOFLAGS= go install "github.com/goreleaser/goreleaser/v2@$version"
fi

# The snapshot is numbered after the latest library tag (vX.Y.Z), never a
# commands' tag (cmd/vX.Y.Z), which is no version goreleaser can read.
GORELEASER_CURRENT_TAG=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || echo v0.0.0)
export GORELEASER_CURRENT_TAG
t=$SECONDS
"$goreleaser" check
"$goreleaser" release --snapshot --clean --skip=publish
echo "snapshot release: $((SECONDS - t))s"
ls dist/*.tar.gz dist/*.zip dist/*.deb dist/*.rpm

if [ "$(id -u)" != 0 ] || ! command -v dpkg >/dev/null; then
	echo "the .deb is not installed: needs root and dpkg"; exit 0
fi
# dpkg, waiting while another package manager on the machine holds its lock.
dpkg_locked() {
	local out i
	for i in $(seq 300); do
		out=$(dpkg "$@" 2>&1) && return 0
		grep -q 'dpkg frontend lock' <<<"$out" || break
		sleep 1
	done
	echo "$out" >&2
	return 1
}
deb=$(ls dist/flexreaddir_*_linux_"$(dpkg --print-architecture)".deb)
trap 'dpkg_locked -r flexreaddir' EXIT
dpkg_locked -i "$deb"
/usr/bin/fdu --version | sed -n 1p
man -w fdu
offered=$(bash -c 'source /usr/share/bash-completion/completions/fdu
	COMP_WORDS=(fdu --max-d) COMP_CWORD=1
	_fdu fdu --max-d fdu
	echo "${COMPREPLY[*]}"')
if [ "$offered" != --max-depth= ]; then
	echo "bash completion of 'fdu --max-d': '$offered', want '--max-depth='"; exit 1
fi
echo "fdu --max-d<TAB>: $offered"
echo "installed $deb, tried it, removed it"
