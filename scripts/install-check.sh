#!/usr/bin/env bash
# install-check.sh: `go install github.com/pbednarcik/flexreaddir/cmd/fdu@VERSION`
# (and cmd/frd) works as it will for a user, with no network access to
# this repository: scripts/modproxy serves the working tree as a module
# proxy from a directory (the library and the commands at VERSION, the
# commands requiring that library), put in front of the usual proxy for
# their dependencies; then both are installed with a fresh GOPATH and
# module cache, no go.work and no -mod=mod, and run.
#
#   scripts/install-check.sh [VERSION]   (default v0.0.0-installcheck)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-v0.0.0-installcheck}
repo=$PWD
proxy=$(go env GOPROXY)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "modproxy: vet, test, serve the working tree at $version"
(
	cd scripts/modproxy
	export GOWORK=off
	go vet ./...
	go test -count=1 ./...
	go run . serve -repo "$repo" -version "$version" -out "$work/proxy"
)

echo "go install …/cmd/fdu@$version …/cmd/frd@$version"
mkdir "$work/home"
(
	cd "$work/home" # outside any module
	env GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod" GOBIN="$work/bin" \
		GOPROXY="file://$work/proxy,$proxy" GONOSUMDB=github.com/pbednarcik/flexreaddir \
		GOFLAGS=-modcacherw GOWORK=off GOTOOLCHAIN=local \
		go install "github.com/pbednarcik/flexreaddir/cmd/fdu@$version" "github.com/pbednarcik/flexreaddir/cmd/frd@$version"
)

first=$("$work/bin/fdu" --version | sed -n 1p)
if [ "$first" != "fdu (flexreaddir) ${version#v}" ]; then
	echo "fdu --version: '$first', want 'fdu (flexreaddir) ${version#v}'"; exit 1
fi
echo "$first"
"$work/bin/frd" --version | sed -n 1p
(cd "$work" && "$work/bin/frd" ls .)
echo "installed and ran fdu and frd at $version"
