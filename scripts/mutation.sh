#!/usr/bin/env bash
# mutation.sh: mutation testing, one package at a time, with the package's
# own tests (-short). gremlins (pinned, installed into a tools directory
# with go install) makes one-token mutants (a comparison, an arithmetic or
# an increment operator, a negation) in the package's non-test files and
# runs the package's tests against each; a mutant the tests pass survived.
# Prints each package's score and its surviving mutants as file:line, and
# with -w writes the table into TESTING.md between its markers; with
# -check fails when a package scores below its floor in
# scripts/mutation-floors (the score may rise, never fall).
#
#   scripts/mutation.sh [-w] [-check] [PKG…]   (PKG: a directory such as
#   internal/dirfd or cmd/fdu/internal/units; default: the list below)
#
# PKG=FILE,FILE… mutates only those files of the package (still run
# against all its tests): a part of a package whose whole run is too long
# for CI, such as cmd/fdu/internal/du=fnmatch.go,match.go. It is a
# package of its own in the table and in scripts/mutation-floors.
#
# gremlins copies the module a package belongs to and runs `go test` in
# the copy, so this runs it on a staged copy of the module (the files git
# knows, without the nested modules): go.work is not copied with ./cmd,
# which would build against the released library, so the staged ./cmd
# replaces the library with this tree. One worker (-workers 1): the
# machine's cores are shared. MUTATION_WORKERS overrides it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
version=v0.6.0
tools=$(go env GOPATH)/tools/gremlins-$version
gremlins=$tools/gremlins
if [ ! -x "$gremlins" ]; then
	echo "installing gremlins $version into $tools"
	GOBIN=$tools GOFLAGS= go install "github.com/go-gremlins/gremlins/cmd/gremlins@$version"
fi

# A test that skips for want of a tool (mkfs.xfs, setfacl, tmux…) kills
# no mutant: the tools .ci/run installs, installed here too.
scripts/test-tools.sh

write=0 check=0
while [ $# -gt 0 ]; do
	case $1 in
	-w) write=1; shift ;;
	-check) check=1; shift ;;
	-*) echo "usage: $0 [-w] [-check] [PKG…]" >&2; exit 2 ;;
	*) break ;;
	esac
done
# The packages the target is set for, fastest first.
default="cmd/fdu/internal/units cmd/fdu/internal/message internal/dirfd cmd/fdu/internal/du=fnmatch.go,match.go cmd/fdu/internal/report frd"
pkgs=${*:-$default}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results
: >"$results"

# stage MODDIR: the files git knows (and new ones not ignored) of the
# module at MODDIR, without the modules nested in it.
stage() {
	local mod=$1 dst=$work/stage/${1/#./root}
	[ -d "$dst" ] && return
	mkdir -p "$dst"
	(cd "$repo/$mod" && git ls-files -co --exclude-standard -z . |
		grep -zv -e '^cmd/' -e '^bench/' -e '^go\.work' |
		xargs -0 cp --parents -t "$dst" 2>/dev/null) || true
	if [ "$mod" = cmd ]; then
		(cd "$dst" && GOWORK=off go mod edit -replace "github.com/pbednarcik/flexreaddir=$repo")
	fi
}

for pkg in $pkgs; do
	pkg=${pkg#./}
	only=
	case $pkg in *=*) only=${pkg#*=} pkg=${pkg%%=*} ;; esac
	pkg=${pkg%/}
	case $pkg in
	cmd/*) mod=cmd rel=${pkg#cmd/} ;;
	*) mod=. rel=$pkg ;;
	esac
	stage "$mod"
	dir=$work/stage/${mod/#./root}/$rel
	# Subpackages are packages of their own: their files are left out.
	excl=()
	for sub in $(cd "$dir" && find . -mindepth 2 -name '*.go' -printf '%h\n' | sort -u); do
		excl+=(-E "^${sub#./}/")
	done
	if [ -n "$only" ]; then # every other file of the package left out
		for f in $(cd "$dir" && ls ./*.go | grep -v '_test\.go$'); do
			f=${f#./}
			[[ ",$only," == *",$f,"* ]] || excl+=(-E "^${f//./\\.}\$")
		done
	fi
	name=$pkg${only:+=$only}
	echo "== $name"
	t=$SECONDS
	rm -f "$work/out.json" # an interrupted run writes none: no other package's is read
	(cd "$dir" && GOWORK=off GOFLAGS="-short -count=1 -failfast" \
		"$gremlins" unleash --workers "${MUTATION_WORKERS:-1}" --timeout-coefficient 3 \
		-S l ${excl[@]+"${excl[@]}"} -o "$work/out.json" "$dir" >"$work/log" 2>&1) || {
		cat "$work/log"; echo "gremlins failed on $name"; exit 1
	}
	secs=$((SECONDS - t))
	if [ ! -s "$work/out.json" ]; then
		cat "$work/log"; echo "gremlins wrote no results for $name"; exit 1
	fi
	# file status line: LIVED mutants as file:line, then the counts.
	python3 - "$work/out.json" "$pkg" "$secs" "$results" "$name" <<-'EOF'
		import json, sys
		out, pkg, secs, results, name = sys.argv[1:]
		r = json.load(open(out))
		n = {"KILLED": 0, "LIVED": 0, "TIMED OUT": 0, "NOT COVERED": 0, "NOT VIABLE": 0}
		lived = []
		for f in r["files"]:
		    for m in f["mutations"]:
		        n[m["status"]] = n.get(m["status"], 0) + 1
		        if m["status"] == "LIVED":
		            lived.append("%s/%s:%d:%d %s" % (pkg, f["file_name"], m["line"], m["column"], m["type"]))
		killed = n["KILLED"] + n["TIMED OUT"]
		tried = killed + n["LIVED"]
		score = 100.0 * killed / tried if tried else 100.0
		for l in sorted(lived, key=lambda s: (s.split(":")[0], int(s.split(":")[1]))):
		    print("  lived: " + l)
		print("  %s: %.1f%% killed (%d of %d; %d not covered, %d not viable) in %ss" %
		      (name, score, killed, tried, n["NOT COVERED"], n["NOT VIABLE"], secs))
		with open(results, "a") as w:
		    w.write("%s %.1f %d %d %d %s\n" % (name, score, killed, tried, n["NOT COVERED"], secs))
	EOF
done

if [ "$write" = 1 ]; then
	python3 - "$results" TESTING.md <<-'EOF'
		import sys
		results, doc = sys.argv[1:]
		rows = {}
		text = open(doc).read()
		begin, end = "<!-- mutation table -->\n", "<!-- end of mutation table -->\n"
		head, rest = text.split(begin)
		table, tail = rest.split(end)
		# Rows for packages not run now are kept.
		for line in table.splitlines()[2:]:
		    cells = [c.strip() for c in line.strip("|").split("|")]
		    rows[cells[0].strip("`")] = line
		for line in open(results):
		    pkg, score, killed, tried, nc, secs = line.split()
		    rows[pkg] = "| `%s` | %s%% | %s | %s | %s | %s s |" % (pkg, score, killed, tried, nc, secs)
		out = ["| package | score | killed | tried | not covered | time |",
		       "| --- | ---: | ---: | ---: | ---: | ---: |"]
		out += [rows[k] for k in sorted(rows)]
		open(doc, "w").write(head + begin + "\n".join(out) + "\n" + end + tail)
	EOF
	echo "table written into TESTING.md"
fi

if [ "$check" = 1 ]; then
	fail=0
	while read -r pkg score _; do
		floor=$(awk -v p="$pkg" '$1 == p { print $2 }' scripts/mutation-floors)
		if [ -z "$floor" ]; then
			echo "$pkg: no floor in scripts/mutation-floors"; fail=1
		elif awk -v s="$score" -v f="$floor" 'BEGIN { exit !(s < f) }'; then
			echo "$pkg: $score% killed, below its floor of $floor%"; fail=1
		fi
	done <"$results"
	exit $fail
fi
