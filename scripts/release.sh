#!/usr/bin/env bash
# release.sh: tags a release of both modules in the order `go install
# github.com/pbednarcik/flexreaddir/cmd/fdu@VERSION` needs:
#
#   1. the library, VERSION, on the current commit;
#   2. a commit "cmd: require the library at VERSION": cmd/go.mod requires
#      it and cmd/go.sum holds its hashes, made from that commit as the go
#      command will make them from the tag (scripts/modproxy pin);
#   3. the commands, cmd/VERSION, on that commit.
#
# Before tagging it builds the commands and installs them as a user would,
# from the working tree served as a module proxy (scripts/install-check.sh).
# It refuses a dirty tree or a version already tagged, and pushes nothing:
# it prints the command that does.
#
#   scripts/release.sh vX.Y.Z
set -euo pipefail
cd "$(dirname "$0")/.."
v=${1:?usage: scripts/release.sh vX.Y.Z}
lib=github.com/pbednarcik/flexreaddir

# The module paths have no /vN suffix: the major version is 0 or 1.
if ! [[ $v =~ ^v[01]\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release.sh: '$v' is not a version v0.Y.Z or v1.Y.Z" >&2; exit 2
fi
if [ -n "$(git status --porcelain)" ]; then
	echo "release.sh: the tree is not clean; commit or stash first:" >&2
	git status --short >&2; exit 1
fi
for t in "$v" "cmd/$v"; do
	if git rev-parse -q --verify "refs/tags/$t" >/dev/null; then
		echo "release.sh: tag $t exists" >&2; exit 1
	fi
done

commit=$(git rev-parse HEAD)
echo "pin cmd/go.mod and cmd/go.sum to $lib@$v (from $commit)"
(cd scripts/modproxy && GOWORK=off go run . pin -repo "$OLDPWD" -rev "$commit" -version "$v")
restore() { git checkout -q -- cmd/go.mod cmd/go.sum; }
if ! { go build ./cmd/... && scripts/install-check.sh "$v"; }; then
	restore
	echo "release.sh: the commands do not build or install at $v; nothing tagged" >&2; exit 1
fi

git tag -a "$v" -m "flexreaddir $v" "$commit"
git add cmd/go.mod cmd/go.sum
if ! git diff --cached --quiet; then
	git commit -q -m "cmd: require the library at $v" \
		-m "The commands' release $v builds with the library's $v, whose hashes cmd/go.sum holds."
fi
git tag -a "cmd/$v" -m "flexreaddir commands $v"
echo
echo "tagged $v ($commit) and cmd/$v ($(git rev-parse HEAD)); nothing pushed. To publish:"
echo "  git push origin HEAD $v cmd/$v"
echo "then the packages: RELEASING.md"
