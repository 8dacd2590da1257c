#!/usr/bin/env bash
# gnu-du-tests.sh: GNU coreutils 9.1's own tests of du, unmodified, run
# under coreutils' tests/init.sh harness with a `du` first on PATH: the
# installed GNU du (the control) and fdu through a symlink named du.
#
#   scripts/gnu-du-tests.sh [TEST...]
#
# The source comes from Debian's source package (a deb-src entry for the
# installed suite is added if missing; nothing is vendored) into
# $GNU_TESTS_DIR (default /tmp/frd-gnu). The tests run there, on the
# machine's file system (ext4 here: threshold.sh needs directories of a
# block or more), but for bigtime.sh, which runs on a loop-mounted btrfs:
# it needs a file system that keeps a time of 2^63-1 seconds. The
# expensive tests run too (RUN_EXPENSIVE_TESTS, RUN_VERY_EXPENSIVE_TESTS),
# and move-dir-while-traversing.sh gets python3-pyinotify. Needs root
# (the mounts, and nobody for the non-root tests). Each test runs as root; a test
# that skips because it must run as non-root runs again as nobody. Every
# test runs in each locale of $GNU_DU_LOCALES (default: C, as coreutils
# runs them, then C.UTF-8 and en_US.UTF-8, generated with locale-gen if
# missing; a locale that cannot be had is skipped with a line saying so).
# One line per test, target and locale, then a closing line per target
# and locale; the exit status is 1 when fdu fails a test the control
# passes in the same locale, unless the test is listed in ACCEPTED below
# (and in the README, with the reason).
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
. scripts/locales.sh
work=${GNU_TESTS_DIR:-/tmp/frd-gnu}
version=9.1
src=$work/coreutils-$version
bigsrc=$work/fs/coreutils-$version # on btrfs, for bigtime.sh

# Tests fdu does not pass, each with its reason in the README. Under
# ulimit -v an amd64 (or arm64) Go program cannot start below about 750 MB
# of address space: the runtime reserves its page allocator's summaries
# up front. The test's search for du's own limit stops at 50 MB, so it
# skips; it runs again below with a GOARCH=386 build of fdu, whose runtime
# starts in 15 MB, and that run must pass.
ACCEPTED=(tests/rm/many-dir-entries-vs-OOM.sh)
small=tests/rm/many-dir-entries-vs-OOM.sh

read -ra locales <<<"${GNU_DU_LOCALES:-C C.UTF-8 en_US.UTF-8}"
# Tests run in C only: no locale changes what they test (the search for
# du's memory limit), and they take half a run's time.
C_ONLY=(tests/rm/many-dir-entries-vs-OOM.sh)

tests=(
	tests/du/{2g,8gb,basic,bigtime,bind-mount-dir-cycle-v2,bind-mount-dir-cycle,deref-args,deref}.sh
	tests/du/{exclude,fd-leak,files0-from-dir}.sh tests/du/files0-from.pl
	tests/du/{hard-link,inacc-dest,inacc-dir,inaccessible-cwd,inodes,long-from-unreadable,long-sloop}.sh
	tests/du/{max-depth,move-dir-while-traversing,no-deref,no-x,one-file-system,restore-wd,slash}.sh
	tests/du/{threshold,trailing-slash,two-args}.sh
	tests/misc/time-style.sh tests/misc/help-version.sh tests/misc/invalid-opt.pl
	tests/misc/usage_vs_getopt.sh tests/rm/many-dir-entries-vs-OOM.sh tests/dd/sparse.sh
)

# mountfs puts $work/fs on a loop-mounted btrfs, where the tests run.
mountfs() {
	mkdir -p "$work/fs"
	mountpoint -q "$work/fs" && return
	command -v mkfs.btrfs >/dev/null || apt-get install -y -qq btrfs-progs >/dev/null
	truncate -s 4G "$work/btrfs.img"
	mkfs.btrfs -q -f "$work/btrfs.img" && mount -o loop "$work/btrfs.img" "$work/fs" || exit 2
}

tools() {
	local need=()
	python -c 'import pyinotify' 2>/dev/null || need+=(python3-pyinotify python-is-python3)
	command -v setpriv >/dev/null || need+=(util-linux)
	[ ${#need[@]} = 0 ] || apt-get install -y -qq "${need[@]}" >/dev/null || true
}

fetch() {
	[ -f "$src/tests/init.sh" ] && [ -f "$bigsrc/tests/init.sh" ] && return
	mkdir -p "$work"
	local get=(apt-get source --download-only -qq -o APT::Sandbox::User=root coreutils=$version-1)
	if [ ! -f "$work/coreutils_$version.orig.tar.xz" ] && ! (cd "$work" && "${get[@]}" 2>/dev/null); then
		if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
			cat >/etc/apt/sources.list.d/frd-deb-src.sources <<-EOF
				Types: deb-src
				URIs: http://deb.debian.org/debian
				Suites: $(. /etc/os-release && echo "$VERSION_CODENAME")
				Components: main
				Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
			EOF
		fi
		apt-get update -qq
		(cd "$work" && "${get[@]}") || exit 2
	fi
	tar -C "$work" -xJf "$work/coreutils_$version.orig.tar.xz"
	tar -C "$work/fs" -xJf "$work/coreutils_$version.orig.tar.xz"
}

# version_of TARGET is the version its --version reports, the last word of
# the first line, which help-version.sh checks --version against.
version_of() { "$1" --version | sed -n '1s/.* //p;q'; }

# run TARGET TEST [nobody]: the test's exit status (0 pass, 77 skip, else
# fail) with TARGET as src/du.
run() {
	local target=$1 t=$2 user=${3:-root} progs src=$src
	[ "$t" = tests/du/bigtime.sh ] && src=$bigsrc
	mkdir -p "$src/src"
	ln -sfn "$target" "$src/src/du"
	progs=$(sed -n 's/^print_ver_ //p' "$src/$t" | tr '\n' ' ')
	case $t in
	*/help-version.sh | */usage_vs_getopt.sh | *.pl) progs=du ;;
	esac
	for p in $progs; do
		[ "$p" = du ] || ln -sfn "$(command -v "$p")" "$src/src/$p"
	done
	local tmp=$work/tmp-$user
	mkdir -p "$tmp" && chmod 1777 "$tmp"
	local env=(env -i PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME=/tmp TMPDIR="$tmp"
		LC_ALL="$locale" srcdir=. top_srcdir=. abs_top_srcdir="$src" abs_top_builddir="$src" abs_srcdir="$src"
		built_programs="$progs" VERSION="$(version_of "$target")" PACKAGE_VERSION=$version fail=0 host_os=linux-gnu
		host_triplet=x86_64-pc-linux-gnu CONFIG_HEADER="$src/lib/config.h" CU_TEST_NAME="${t//\//-}"
		CC=cc AWK=awk EGREP="grep -E" EXEEXT= MAKE=make PERL=perl SHELL=/bin/sh VERBOSE=yes
		RUN_EXPENSIVE_TESTS=yes RUN_VERY_EXPENSIVE_TESTS=yes
		NON_ROOT_USERNAME=nobody NON_ROOT_GID=65534)
	local cmd=(/bin/sh "$t")
	case $t in *.pl) cmd=(perl -w -I./tests -MCuSkip -MCoreutils -- "$t") ;; esac
	if [ "$user" = nobody ]; then
		(cd "$src" && setpriv --reuid=65534 --regid=65534 --clear-groups "${env[@]}" "${cmd[@]}" 9>&2) >"$log" 2>&1
	else
		(cd "$src" && "${env[@]}" "${cmd[@]}" 9>&2) >"$log" 2>&1
	fi
}

mountfs
tools
fetch
CGO_ENABLED=0 go build -trimpath -o "$work/bin/fdu" ./cmd/fdu || exit 2
CGO_ENABLED=0 GOARCH=386 go build -trimpath -o "$work/bin/fdu-386" ./cmd/fdu || exit 2
chmod -R a+rX "$work"
chmod 1777 "$src" "$bigsrc" # the tests make their directories where they start, as nobody too
[ $# -gt 0 ] && tests=("$@")

declare -A control_passed
status=0
for locale in "${locales[@]}"; do
	if ! have_locale "$locale"; then
		echo "$locale: skipped: the locale is not installed and locale-gen cannot generate it"
		continue
	fi
	for name in control fdu; do
		target=/usr/bin/du
		[ $name = fdu ] && target=$work/bin/fdu
		pass=0 failn=0 skip=0
		mkdir -p "$work/logs/$locale/$name"
		for t in "${tests[@]}"; do
			if [ "$locale" != C ] && [[ " ${C_ONLY[*]} " == *" $t "* ]]; then
				continue
			fi
			log=$work/logs/$locale/$name/${t//\//-}.log
			run "$target" "$t"
			rc=$?
			as=root
			if [ $rc = 77 ] && grep -q 'must be run as non-root' "$log"; then
				run "$target" "$t" nobody
				rc=$? as=nobody
			fi
			case $rc in
			0) verdict=PASS pass=$((pass + 1)) ;;
			77) verdict=SKIP skip=$((skip + 1)) ;;
			*) verdict=FAIL failn=$((failn + 1)) ;;
			esac
			[ $name = control ] && [ $verdict = PASS ] && control_passed["$locale $t"]=1
			note=
			if [ $name = fdu ] && [ $verdict != PASS ] && [ -n "${control_passed["$locale $t"]:-}" ]; then
				if [[ " ${ACCEPTED[*]} " == *" $t "* ]]; then
					note=" (accepted: see the README)"
				else
					note=" (the control passes)" status=1
				fi
			fi
			printf '%-8s %-11s %-4s %-44s as %s%s\n' "$name" "$locale" "$verdict" "$t" "$as" "$note"
		done
		echo "$name in $locale: $pass passed, $failn failed, $skip skipped"
	done
done
if [[ " ${tests[*]} " == *" $small "* ]]; then
	mkdir -p "$work/logs/fdu-386"
	log=$work/logs/fdu-386/${small//\//-}.log
	locale=C
	run "$work/bin/fdu-386" "$small"
	rc=$?
	verdict=FAIL
	case $rc in 0) verdict=PASS ;; 77) verdict=SKIP ;; esac
	[ $verdict = PASS ] || status=1
	printf '%-8s %-11s %-4s %-44s as %s\n' fdu-386 C "$verdict" "$small" root
fi
echo "logs: $work/logs"
exit $status
